# An exception raised by a while guard (IndexError) ends the loop; else does not run.
t: tuple
x: int

i = 0
passes = 0
try:
    while t[i] != x:
        i += 1
    else:
        passes = -1
except IndexError:
    passes = 100
j = len(t)
while 10 // j > 0 and j < 6:
    j += 1
