t: tuple
x: int
for v in t:
    if v == x:
        print(v)
        break
else:
    print(-1)
