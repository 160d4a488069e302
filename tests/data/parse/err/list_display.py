x: int
y = [x, x + 1]
