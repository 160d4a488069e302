def f(t: tuple, x: int) -> int:
    i = 0
    while i < len(t):
        if t[i] == x:
            return i
        i += 2
    return t[i - 1]
