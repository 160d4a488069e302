x: int
if x > 0:
    y = 1
print(y)
