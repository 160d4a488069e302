# Evaluation order decides which exception wins when several operands would raise: base
# before index, left before right, arguments and tuple elements left to right, and an
# augmented assignment reads its target before evaluating the right-hand side.
t: tuple
x: int
y: int

def mk(v: int) -> tuple:
    return (v, 10 // v)

def bump(v: int, s: tuple) -> int:
    if v > 0:
        acc = 1
    acc += s[v]
    return acc

log = ()
try:
    a = mk(x)[t[y]]
except ZeroDivisionError:
    log = log + (1,)
except IndexError:
    log = log + (2,)
try:
    b = t[x] < 10 // y
except ZeroDivisionError:
    log = log + (3,)
except IndexError:
    log = log + (4,)
try:
    c = min(t[x], 10 // y) + max(10 // x, t[y])
except ZeroDivisionError:
    log = log + (5,)
except IndexError:
    log = log + (6,)
try:
    d = (t[y], 10 // x, -t[x])
except ArithmeticError:
    log = log + (7,)
except LookupError:
    log = log + (8,)
try:
    e = t[x] < t[y] < 10 // x
except ZeroDivisionError:
    log = log + (9,)
except IndexError:
    log = log + (10,)
try:
    f = bump(x, t)
except UnboundLocalError:
    log = log + (11,)
except IndexError:
    log = log + (12,)
try:
    g = len(t) // y + t[x] - 7 % x
except ZeroDivisionError:
    log = log + (13,)
except IndexError:
    log = log + (14,)
try:
    z = 0
    if x > 2:
        z = 5
    else:
        z += t[y] // x
except Exception:
    log = log + (15,)
try:
    if x > 0:
        late = 1
    late += t[y]
except NameError:
    log = log + (16,)
except IndexError:
    log = log + (17,)
