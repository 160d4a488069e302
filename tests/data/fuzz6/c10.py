x: int
try:
    if x > 0:
        y = x
    print(y)
except NameError:
    print(0)
