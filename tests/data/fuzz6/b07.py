x: int
print(abs(x) - abs(-x), min(x, -x), max(x, 3 - x))
y = x
y *= -1
y %= 7
print(y)
