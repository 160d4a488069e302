# Floor division and modulo for every sign combination of x and y, and by zero (caught).
x: int
y: int

q = 0
r = 0
by_zero = False
try:
    q = x // y
    r = x % y
except ZeroDivisionError:
    by_zero = True

identity = by_zero or q * y + r == x
rem_sign_follows_divisor = by_zero or r == 0 or (r > 0) == (y > 0)
neg_q = 0
try:
    neg_q = -x // y
except ZeroDivisionError:
    neg_q = 7
