# entry: f
def f(t: tuple, x: int) -> int:
    i = 0
    while i < len(t):
        if t[i] > x:
            return 10 // (t[i] - 5)
        i += 1
    return -1
