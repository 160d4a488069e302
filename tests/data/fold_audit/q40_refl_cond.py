def f(t: tuple, u: tuple) -> int:
    i = 0
    while i < len(t) and t[-1 - i] == u[i]:
        i += 1
    return 12 // (i - 1)
