# entry: f
def r(n: int, acc: int) -> int:
    if n <= 0:
        return acc
    return r(n - 1, acc + 2)

def f(n: int) -> int:
    x = r(n, 0)
    assert x != 10
    return x
