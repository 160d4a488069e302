a: int
for i in range(a, 0, -3):
    print(i, i % 4, -i // 4)
print(a)
