x: int
y = x / 2
