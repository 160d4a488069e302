n: int
for i in range(n):
    pass
print(i)
