a: int
t = (1, -2, 3, -4, 5)
print(t[a], t[a:], t[a::-2])
