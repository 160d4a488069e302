def f(t: tuple, m: int) -> int:
    i = 0
    while i < len(t):
        if t[-1 - i] % m == 0:
            return i
        i += 1
    return -1
