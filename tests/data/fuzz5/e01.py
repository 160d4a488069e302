# entry: f
def f(t: tuple, i: int) -> int:
    r = 0
    try:
        for k in range(i):
            r += t[k]
    except IndexError:
        r = -r
    return r
