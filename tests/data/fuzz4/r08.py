x: int
y = x if x > 0 else (10 // x if x < 0 else -1)
z = 1 if x == 0 or 5 // x > 1 else 2
print(y, z)
