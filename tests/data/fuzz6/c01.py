x: int
y: int
try:
    r = x // y
except ZeroDivisionError:
    r = 0
print(r)
