def f(t: tuple) -> int:
    i = len(t)
    s = 0
    while i > 0:
        i -= 1
        if t[i] < 0:
            s = t[i]
            break
    assert s != -3
    return s
