t: tuple
i: int
print(t[i:], t[:i], t[-i:], t[i:-1])
