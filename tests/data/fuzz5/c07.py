x: int
y: int
try:
    print(10 // (x - y), 10 % (y - x))
except ZeroDivisionError:
    print(x == y)
