# entry: f
def f(t: tuple, x: int) -> int:
    s = 0
    for v in t:
        s += v
    assert s != x
    return s
