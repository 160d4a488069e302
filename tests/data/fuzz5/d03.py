# entry: f
def g(n: int) -> int:
    if n <= 0:
        return 0
    return n + g(n - 2)

def f(n: int) -> int:
    r = g(n)
    assert r != 6
    return r
