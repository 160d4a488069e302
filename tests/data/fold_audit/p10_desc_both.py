def f(t: tuple) -> bool:
    i = 0
    n = len(t)
    while i < n // 2:
        if t[i] != t[n - i - 1]:
            return False
        i += 1
    assert n != 3
    return True
