# Issue 25's expressions: in / not in, slices, conditional expressions, and how they nest.
t: tuple
u: tuple
x: int
c: bool
a = x in t
b = x not in t[1:]
d = 0 <= x in t
e = not x in t
f = t[1:] + t[:2] + t[:] + t[::-1] + t[x:-x:2] + t[-1::-2] + t[:x:]
g = (t + u)[1:][0] + len(t[x:])
h = x if c else -x
i = x if c else x + 1 if x > 0 else 0
j = (x if c else 1) + (2 if c or a else 3)
k = t if x in u[::2] else u[:x] + (x,)
m = all((t[q] if q < len(t) else 0) >= 0 for q in range(x))
n = (x if c else 0) if c else x
