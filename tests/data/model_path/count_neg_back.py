# A count over a descending range, then an assert on it.
def f(t: tuple) -> int:
    c = 0
    for i in range(len(t) - 1, -1, -1):
        if t[i] < 0:
            c += 1
    assert c < 2
    return c
