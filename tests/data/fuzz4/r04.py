# entry: f
g = 5
def f(x: int) -> int:
    if x > 0:
        y = g
    return y + x
