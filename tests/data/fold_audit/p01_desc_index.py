def f(t: tuple, x: int) -> int:
    i = 0
    while i < len(t):
        if t[len(t) - i - 1] == x:
            return 7 // (len(t) - i - 1)
        i += 1
    return -1
