n: int
k = 0
while k < n:
    k += 1
    if k % 3 == 0:
        continue
    if k > 4:
        break
else:
    k = k * 100
print(k)
