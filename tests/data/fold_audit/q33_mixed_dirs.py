def f(a: tuple, b: tuple) -> int:
    i = 0
    while i < len(a) and i < len(b):
        if a[i] == b[len(b) - 1 - i]:
            return 6 // (i - 2)
        i += 1
    return 0
