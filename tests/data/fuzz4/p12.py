t: tuple
m = max(len(t), 2)
n = min(abs(len(t) - 5), 3)
u = t[m - n:]
print(u, -len(u), +m)
assert len(u) != 2
