t: tuple
i: int
try:
    v = t[i]
    print(v)
except IndexError:
    v = -1
    print(len(t))
