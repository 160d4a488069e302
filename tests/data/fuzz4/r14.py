t: tuple
u = ()
for x in t:
    if x % 2 == 0:
        u = u + (x,)
    elif x in u:
        u = u[1:]
print(u, tuple() == u, len(u) > 0 and u[0] == u[-1])
