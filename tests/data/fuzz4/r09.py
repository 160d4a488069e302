t: tuple
x: int
r = 0
while r < 3:
    r += 1
    if x in t[r:]:
        continue
    elif x not in t[:r]:
        break
else:
    r = 100
print(r)
