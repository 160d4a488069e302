# entry: f
def f(x: int) -> int:
    if x > 0:
        y = x
    return y
