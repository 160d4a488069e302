# Nested try: the inner handler catches what it names, the rest reaches the outer one.
x: int
y: int
t: tuple

trail = 0
try:
    try:
        a = t[x]
        b = a // y
        trail = 1
    except ZeroDivisionError:
        trail = 2
    c = t[y]
    trail = trail + 10
except IndexError:
    trail = trail + 100
try:
    try:
        try:
            d = 1 // (x - y)
        except IndexError:
            trail = -1
    except LookupError:
        trail = -2
except ArithmeticError:
    trail = trail + 1000
