def f(t: tuple) -> int:
    i = len(t) - 1
    c = 0
    while i >= 0:
        if t[i] > 0:
            c += 1
        i -= 1
    assert c != 2
    return c
