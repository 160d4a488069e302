x: int
if x:
    x = 0
