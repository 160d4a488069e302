# entry: f
def sq(x: int) -> int:
    ensures result >= 0
    return x * x

def f(a: int, b: int) -> int:
    s = sq(a) + sq(b)
    if s == 0:
        return 0
    return 1
