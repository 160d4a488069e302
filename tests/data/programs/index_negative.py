# Negative indices count from the end; below -len(t) they raise IndexError.
t: tuple
i: int

n = len(t)
first = 0
last = 0
if n > 0:
    first = t[-n]
    last = t[-1]
v = t[-1 - abs(i) % 3]
w = t[i]
