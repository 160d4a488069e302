n: int
k = 0
while n > 0:
    n -= 2
    if n == 3:
        break
    k += 1
else:
    k = -k
print(n, k)
