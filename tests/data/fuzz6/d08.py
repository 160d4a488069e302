# entry: rmax
def rmax(t: tuple) -> int:
    if len(t) == 1:
        return t[0]
    m = rmax(t[1:])
    return t[0] if t[0] > m else m
