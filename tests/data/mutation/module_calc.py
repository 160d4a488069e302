# Module run: inputs x and y.
x: int
y: int
z = x * 3 - y
if z % 5 == 1:
    w = z // 5
else:
    w = z + y
