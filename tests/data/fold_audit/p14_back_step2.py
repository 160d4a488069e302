def f(t: tuple) -> int:
    i = len(t) - 1
    while i >= 0:
        if t[i] == 0:
            return 3 // (i - 2)
        i -= 2
    return -1
