t: tuple
u = t[1:] + t[:1]
v = u[::-1]
if len(t) >= 2:
    print(u[0], v[0], t[-2])
else:
    print(u == t, v)
