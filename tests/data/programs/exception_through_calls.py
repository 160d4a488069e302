# Exceptions propagate out of nested calls into the caller's try (or out of the module).
x: int
t: tuple

def pick(t: tuple, i: int) -> int:
    return t[i]

def scaled(t: tuple, i: int, d: int) -> int:
    v = pick(t, i)
    return v // d

def guarded(t: tuple, i: int) -> int:
    try:
        return scaled(t, i, i - 1)
    except ZeroDivisionError:
        return -1

a = 0
try:
    a = scaled(t, x, x)
except LookupError:
    a = -100
b = guarded(t, x)
