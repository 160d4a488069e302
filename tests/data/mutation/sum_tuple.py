# entry: total
def total(t: tuple) -> int:
    s = 0
    for v in t:
        s += v
    return s
