t: tuple
x: int
if x in t[1:]:
    print(1 if x > 0 else 0, len(t))
elif x in t:
    print(t[0] == x)
else:
    print(x in t[::-1])
