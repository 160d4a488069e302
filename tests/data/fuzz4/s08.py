x: int
c = 0
while x > 0:
    x -= 3
    c += 1
    if c > 100:
        break
print(x, c)
