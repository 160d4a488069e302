def f(t: tuple) -> int:
    c = 0
    i = 0
    while i < len(t):
        i += 1
        if t[i - 1] > 0:
            continue
        c += 1
    return 10 // (c - 2)
