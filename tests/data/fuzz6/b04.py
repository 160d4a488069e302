x: int
y: int
print(x // y if y != 0 else 0, x % y if y < 0 else -1)
print(-x // 4, -x % 4, x // -4, x % -4)
