x: int
y: int
print(x * y // 7 % 3, -x % 4, x % -4, -(x // -4))
