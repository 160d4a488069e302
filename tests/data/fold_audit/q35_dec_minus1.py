def f(t: tuple) -> int:
    i = len(t)
    while i > 0:
        if t[i - 1] == 5:
            return 15 // (i - 2)
        i -= 1
    return 0
