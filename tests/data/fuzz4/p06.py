x: int
t: tuple
r = (x, x + 1) + t
if x in r[2:]:
    print(x)
print(r[::2], r[1::-1], len(r[::-3]))
