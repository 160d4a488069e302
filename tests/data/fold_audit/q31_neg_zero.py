def f(t: tuple, x: int) -> int:
    i = 0
    while i < len(t):
        if t[-i] == x:
            return 10 // (i - 1)
        i += 1
    return 0
