t: tuple
a: int
b: int
print(t[a:b:-1], t[-100:100], t[100:], t[:-100])
