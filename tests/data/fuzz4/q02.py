# entry: f
def f(t: tuple, x: int) -> int:
    s = 0
    for v in t:
        if v > x:
            s += 2
        else:
            s -= 1
    return s
