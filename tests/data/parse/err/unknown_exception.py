x: int
try:
    y = 1 // x
except ZeroDivison:
    y = 0
