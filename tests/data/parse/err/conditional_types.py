t: tuple
x: int
y = x if x > 0 else t
z = 1 if x else 2
