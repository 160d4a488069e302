x: int
try:
    try:
        y = 1 // x
    except IndexError:
        y = 2
except ZeroDivisionError:
    y = 3
print(y)
