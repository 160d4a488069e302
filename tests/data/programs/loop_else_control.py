# break/continue inside an inner loop's else block act on the outer loop; an exception in
# a loop's else block propagates.
t: tuple
x: int

i = 0
found = ()
outer_done = False
while i < 4:
    i += 1
    j = 0
    while j < len(t):
        if t[j] == i:
            break
        j += 1
    else:
        if i == x:
            break
        continue
    found = found + (i,)
else:
    outer_done = True
k = 0
r = 0
try:
    while k < len(t):
        k += 1
    else:
        r = 10 // (k - 2)
except ZeroDivisionError:
    r = -1
