def f(t: tuple, x: int) -> int:
    i = 0
    while i < len(t):
        if t[-i - 1] > x:
            break
        i += 1
    else:
        return 0
    return 100 // (i - 1)
