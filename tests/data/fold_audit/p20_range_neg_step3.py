def f(t: tuple) -> int:
    for i in range(len(t) - 1, 0, -3):
        if t[i] > 10:
            assert i != 4
            return i
    return 0
