x: int
y: int
try:
    try:
        z = x // y
    except IndexError:
        z = 1
    z = z % (x - 1)
except ArithmeticError:
    z = -9
print(z)
