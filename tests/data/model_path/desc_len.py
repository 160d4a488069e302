# A descending index t[len(t) - k - 1] with an ascending counter, while ... else.
def f(t: tuple, x: int) -> int:
    k = 0
    while k < len(t):
        if t[len(t) - k - 1] == x:
            break
        k += 1
    else:
        return -1
    return 100 // (k - 1)
