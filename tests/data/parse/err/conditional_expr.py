x: int
z = x if x > 0
