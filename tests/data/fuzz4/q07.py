# entry: f
def f(t: tuple, x: int) -> int:
    k = 0
    i = 0
    while i < len(t):
        if t[i] + 1 == x:
            k += 3
        i += 1
    return k - i
