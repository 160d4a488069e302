t: tuple
a: int
b: int
c: int
u = t[a:b:c]
v = t[-a::]
w = t[:b:-1]
print(u, v, w)
