# A module program: a backwards search over declared inputs.
t: tuple
x: int
i = len(t)
found = -1
while i > 0:
    i -= 1
    if t[i] == x:
        found = i
        break
r = 5 // found
