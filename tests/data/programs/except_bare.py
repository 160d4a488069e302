# A bare `except:` runs its handler for any exception (and only once).
x: int
t: tuple

handled = 0
r = 0
try:
    r = t[x] // (x - 1)
except:
    handled = handled + 1
    r = -1
try:
    assert len(t) != x
except:
    handled = handled + 10
