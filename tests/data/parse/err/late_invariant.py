x: int
while x > 0:
    x -= 1
    invariant x >= 0
