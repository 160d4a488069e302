# entry: maxpos
def maxpos(t: tuple) -> int:
    if len(t) == 0:
        return -1
    best = 0
    i = 1
    while i < len(t):
        if t[i] > t[best]:
            best = i
        i += 1
    return best
