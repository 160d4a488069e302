def f(t: tuple) -> int:
    i = len(t) - 1
    while i > 0:
        if t[i] < t[i - 1]:
            return 8 // (t[i] - t[i - 1] + 1)
        i -= 1
    return 0
