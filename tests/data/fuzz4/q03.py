# entry: f
def f(n: int, k: int) -> int:
    i = 0
    s = 0
    while i < n:
        s += k
        i += 2
    assert s != 7
    return s
