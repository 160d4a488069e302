x: int
b: bool
y = x if b else -x
if b and y < 0 or not b and y > 0:
    print(1)
elif b == (x > 3):
    print(2)
else:
    print(3, b, not b)
