def f(t: tuple, x: int) -> int:
    i = len(t) - 1
    while i >= 0 and t[i] != x:
        i -= 1
    assert i != 1
    return i
