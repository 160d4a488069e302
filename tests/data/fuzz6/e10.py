n: int
i = 5
while i > 0:
    i -= 1
    if i == n:
        continue
    n += 1
else:
    print(i, n)
print(n)
