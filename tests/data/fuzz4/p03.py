n: int
i = 0
found = -1
while i < n:
    j = 0
    while j < i:
        if i * j == 6:
            found = i
            break
        j += 1
    else:
        i += 1
        continue
    break
else:
    found = -2
print(found, i)
