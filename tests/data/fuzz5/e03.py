x: int
r = 0
try:
    r = 1 // x
except ArithmeticError:
    r = 7
except Exception:
    r = 8
print(r)
