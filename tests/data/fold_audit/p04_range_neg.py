def f(t: tuple, x: int) -> int:
    for i in range(len(t) - 1, -1, -1):
        if t[i] == x:
            return 12 // i
    return -1
