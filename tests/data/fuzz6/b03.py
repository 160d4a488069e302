t: tuple
a: int
b: int
s = t[a:b:-1]
if len(s) > 1:
    print(s[0] - s[-1])
else:
    print(s)
