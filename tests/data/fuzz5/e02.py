x: int
try:
    try:
        assert x > 0
        y = 10 // (x - 3)
    except ZeroDivisionError:
        y = -1
except AssertionError:
    y = -2
print(y)
