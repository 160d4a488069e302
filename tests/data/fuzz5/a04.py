a: int
b: int
c = 0
for i in range(a, b, 2):
    c += i // 3
    if c < -4:
        break
print(c, i)
