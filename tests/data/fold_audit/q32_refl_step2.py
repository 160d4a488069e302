def f(t: tuple) -> int:
    i = 0
    while 2 * i < len(t):
        if t[-2 * i - 1] == 0:
            return 4 // (i - 1)
        i += 1
    return -1
