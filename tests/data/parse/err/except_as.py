x: int
try:
    y = 10 // x
except ZeroDivisionError as e:
    y = 0
