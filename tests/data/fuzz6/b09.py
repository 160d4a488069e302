n: int
for i in range(3):
    print(i, n - i, (i, n))
print()
