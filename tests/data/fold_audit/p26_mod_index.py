def f(t: tuple) -> int:
    i = 0
    while i < len(t):
        if t[len(t) - 1 - i] == 3:
            assert i < 2
        i += 1
    return i
