x: int
y = x * x
if y == -1:
    print(y)
elif x % 2 == 3:
    print(x)
print(y >= 0)
