# entry: f
def bad(x: int) -> int:
    ensures result > x
    if x > 10:
        return x
    return x + 1

def f(x: int) -> int:
    return bad(x)
