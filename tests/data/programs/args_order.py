# Arguments are evaluated left to right before the call: the first failing one decides
# the exception; binary operands likewise, left first.
t: tuple
x: int

def pair(a: int, b: int) -> int:
    return a * 100 + b

r = 0
try:
    r = pair(t[x], 10 // x)
except IndexError:
    r = -1
except ZeroDivisionError:
    r = -2
s = 0
try:
    s = (10 // x) + t[x]
except ArithmeticError:
    s = -3
except LookupError:
    s = -4
u = pair(len(t), t[-1]) + pair(x % 3, 7 % (x + 1))
