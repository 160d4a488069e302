# entry: rsum
def rsum(t: tuple) -> int:
    if len(t) == 0:
        return 0
    return t[0] + rsum(t[1:])
