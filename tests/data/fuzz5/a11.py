t: tuple
c = 0
for x in t:
    for y in t:
        if x < y:
            c += 1
print(c, len(t))
