# entry: largest
def largest(t: tuple) -> int:
    if len(t) == 0:
        return 0
    m = t[0]
    for v in t:
        if v > m:
            m = v
    return m
