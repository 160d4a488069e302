t: tuple
a: int
b: int
print(t[a:b:2], t[a:b:-2], t[b:a:-1], t[a::3], t[:a:-3])
