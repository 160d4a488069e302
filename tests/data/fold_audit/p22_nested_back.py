def f(t: tuple) -> int:
    c = 0
    i = len(t)
    while i > 0:
        i -= 1
        j = 0
        while j < i:
            j += 1
        c += 1
    return 6 // (c - 3)
