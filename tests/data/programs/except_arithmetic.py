# `except ArithmeticError` catches ZeroDivisionError (its subclass), but not IndexError.
x: int
y: int
t: tuple

r = 0
handled = False
try:
    r = x // y + x % (y + 1)
except ArithmeticError:
    handled = True
s = 0
try:
    s = t[x]
except ArithmeticError:
    s = -100
