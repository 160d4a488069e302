x: int
try:
    assert x != 3
    y = 10 // (x - 5)
except AssertionError:
    y = 3
except ZeroDivisionError:
    y = 5
print(y)
