def f(a: tuple, b: tuple) -> int:
    i = 0
    while i < len(a) and i < len(b):
        if a[-i - 1] != b[-i - 1]:
            return 50 // (a[-i - 1] - b[-i - 1] - 1)
        i += 1
    return len(a) - len(b)
