def big_sum(t: tuple) -> int:
    s = 0
    for v in t:
        if v > 2:
            s += v
    return s - len(t)
