# entry: f
# Backwards, both counters on both paths, an index step of -1.
def f(t: tuple, x: int) -> int:
    i = len(t) - 1
    s = 0
    n = 0
    while i >= 0:
        if t[i] != x:
            s = s + 3
            n = n + 1
        else:
            s = s - 1
        i = i - 1
    return s * 100 + n * 10 + i
