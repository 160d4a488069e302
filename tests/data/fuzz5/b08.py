x: int
y: int
z = (x if x > y else y) if x != 0 else (-y if y < 0 else y)
print(z, x if True else y, 0 <= x < y <= 3)
