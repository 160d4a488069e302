x: int
else:
    x = 1
