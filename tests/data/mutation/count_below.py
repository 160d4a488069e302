# entry: count_below
def count_below(t: tuple, x: int) -> int:
    n = 0
    for v in t:
        if v < x:
            n += 1
    return n
