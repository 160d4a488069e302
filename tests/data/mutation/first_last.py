# entry: ends
def ends(t: tuple) -> int:
    if len(t) < 2:
        return -1
    return t[0] * 2 - t[len(t) - 1]
