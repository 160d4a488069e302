# A handler for another class does not catch: the exception propagates (uncaught here).
x: int
t: tuple

r = 0
try:
    r = 5 // x
except IndexError:
    r = -1
s = 0
try:
    s = t[x]
except ZeroDivisionError:
    s = -2
u = 0
try:
    assert x != 3
except ArithmeticError:
    u = -3
