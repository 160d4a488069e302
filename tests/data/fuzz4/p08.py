t: tuple
s = 0
for x in t:
    if x < 0:
        continue
    for y in t[::-1]:
        if y == x:
            s += 1
            break
        s += 100
print(s)
