# entry: f
def f(t: tuple, k: int) -> int:
    for v in t[:2]:
        if len(t) == 0:
            return -5
        if v > k:
            return v
    if k in t[2:2]:
        return 99
    return 0
