# The first matching handler wins, even if a later one is more specific.
x: int
t: tuple

which = 0
try:
    v = t[x] // x
except LookupError:
    which = 1
except IndexError:
    which = 2
except ZeroDivisionError:
    which = 3
except Exception:
    which = 4
try:
    w = 7 % (x + 2)
except Exception:
    which = which + 10
except ArithmeticError:
    which = which + 20
