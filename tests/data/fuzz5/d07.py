t: tuple
u = ()
i = 0
while i < len(t):
    u = u + (t[i] - i,)
    i += 2
print(u, len(u) == (len(t) + 1) // 2)
