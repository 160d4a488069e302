a: int
b: int
r = 0
for i in range(a, b, -1):
    r += 1
    if r > 3:
        break
else:
    r = -r
print(r, a - b)
