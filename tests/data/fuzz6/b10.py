a: bool
b: bool
x: int
c = a and x > 0 or b
print(c, not c, a or not b)
if c and not a:
    x = -x
print(x)
