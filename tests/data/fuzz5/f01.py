# entry: f
def f(n: int) -> int:
    i = 0
    s = 0
    while i < n:
        s += 3
        i += 1
    assert s != 12
    return s
