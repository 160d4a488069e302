t: tuple
u = t + (len(t),) + t[:1]
print(u, u[len(t)], u[-1:])
