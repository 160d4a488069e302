# entry: count_neg
def count_neg(t: tuple) -> int:
    c = 0
    for v in t:
        if v < 0:
            c += 1
    return c
