# entry: f
def g(x: int) -> int:
    if x < 0:
        assert x > -3
    return 100 // x

def f(x: int) -> int:
    try:
        return g(x)
    except ZeroDivisionError:
        return 0
