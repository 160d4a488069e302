x: int
print(x > 0)
if x > 2:
    y = x
else:
    y = 0
print(y)
