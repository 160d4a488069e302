x: int
y = 0
try:
    y = x
    if x > 2:
        z = (1, 2)[x]
    y = 5
except IndexError:
    y = y + 1
print(y)
