def f(t: tuple, x: int) -> int:
    for i in range(len(t) - 1, -1, -1):
        if t[i] == x:
            break
    else:
        return 4 // x
    return 4 // (x - 1)
