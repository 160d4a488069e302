# `except LookupError` catches IndexError (its subclass), but not ZeroDivisionError.
t: tuple
i: int

v = 0
missing = False
try:
    v = t[i] + t[-i]
except LookupError:
    missing = True
w = 0
try:
    w = len(t) // i
except LookupError:
    w = -1
