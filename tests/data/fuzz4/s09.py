a: int
b: int
i = 0
r = 0
while i < 2:
    j = 0
    while j < 2:
        if a == i and b == j:
            r = 10 * i + j
            break
        j += 1
    else:
        i += 1
        continue
    break
print(r, i, j)
