# Tuple concatenation and len: building, reversing, doubling tuples.
t: tuple
x: int

u = t + (x,)
v = (x, x + 1) + t
w = () + t + ()
rev = ()
i = 0
while i < len(t):
    rev = (t[i],) + rev
    i += 1
doubled = t + t
n = len(u) + len(v) + len(w) + len(doubled)
same = rev + rev == doubled
empty = tuple()
one = (x,)
trailing = (1, 2, 3,)
