t: tuple
s: int
try:
    u = t[::s]
except ValueError:
    u = ()
print(u)
