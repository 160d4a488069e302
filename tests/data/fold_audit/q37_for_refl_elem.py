def f(t: tuple) -> int:
    r = 0
    for i in range(1, len(t) + 1):
        if t[-i] == 0:
            r = i
            break
    else:
        return -1
    return 100 // (r - 2)
