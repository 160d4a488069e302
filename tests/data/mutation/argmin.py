# entry: argmin
def argmin(t: tuple) -> int:
    best = -1
    i = 0
    while i < len(t):
        if best < 0 or t[i] < t[best]:
            best = i
        i += 1
    return best
