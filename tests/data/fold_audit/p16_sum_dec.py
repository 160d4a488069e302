def f(x: int) -> int:
    s = 0
    while x > 0:
        x -= 1
        s += 2
    assert s != 6
    return s
