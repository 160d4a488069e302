x: int
t = (1, 2, 3)
try:
    assert x > 0
    y = t[x]
except AssertionError:
    y = -1
except LookupError:
    y = -2
print(y)
