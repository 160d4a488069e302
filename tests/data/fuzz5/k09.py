# entry: f
def inc(x: int) -> int:
    requires x >= 0
    ensures result == x + 1
    return x + 1

def f(x: int) -> int:
    return inc(x - 1)
