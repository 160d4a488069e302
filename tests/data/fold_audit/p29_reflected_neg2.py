def f(t: tuple, x: int) -> int:
    k = -1
    while k >= -len(t):
        if t[k] == x:
            return 30 // (k + 1)
        k -= 1
    return 0
