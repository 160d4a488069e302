t: tuple
x: int
b = t in x
c = t[x:][True:]
d = x[1:]
