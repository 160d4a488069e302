def f(t: tuple, u: tuple) -> int:
    i = len(t)
    while i > 0:
        i -= 1
        if t[i] in u:
            return u[i]
    return 0
