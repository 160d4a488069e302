# entry: f
def f(t: tuple, x: int) -> tuple:
    r = ()
    for v in t:
        if v == x:
            continue
        r = r + (v * 2,)
        if len(r) >= 2:
            break
    return r
