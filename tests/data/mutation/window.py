# entry: best_pair
def best_pair(t: tuple) -> int:
    best = 0
    i = 1
    while i < len(t):
        s = t[i - 1] + t[i]
        if s > best:
            best = s
        i += 1
    return best
