n: int
s = 0
for i in range(n):
    if i % 2 == 1:
        continue
    for j in range(i):
        if j == 1:
            break
        s += 1
    else:
        s += 10
print(s)
