n: int
i = 0
total = 0
while i < 4:
    j = i
    while j > 0:
        total += j
        j -= 1
        if total > n:
            break
    else:
        total -= 1
    i += 1
print(total, i, j)
