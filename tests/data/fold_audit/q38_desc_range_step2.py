def f(t: tuple, x: int) -> int:
    for i in range(len(t) - 1, -1, -2):
        if t[i] == x:
            assert i != 2
            return i
    return -1
