def f(t: tuple, x: int) -> int:
    i = 0
    while i < len(t):
        if t[i] == x:
            break
        i += 1
    else:
        return 5 // x
    return t[i + 1]
