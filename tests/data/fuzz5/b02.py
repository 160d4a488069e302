t: tuple
s: int
print(t[::s])
