def f(t: tuple, x: int) -> int:
    c = 0
    for v in t:
        if v == x:
            break
        c += 1
    else:
        return 20 // (c - 1)
    return c
