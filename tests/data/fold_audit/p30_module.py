t: tuple
x: int
i = len(t)
while i > 0:
    i -= 1
    if t[i] == x:
        break
r = 10 // i
