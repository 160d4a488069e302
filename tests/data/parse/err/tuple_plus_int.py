t: tuple
x: int
t = t + x
