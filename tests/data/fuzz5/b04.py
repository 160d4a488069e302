t: tuple
x: int
r = x in t[1:] and x not in t[:1]
print(r, x in t[::-1], (x + 1) in t)
