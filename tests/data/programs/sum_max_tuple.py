# entry: stats
# Max, sum and count over a tuple (IndexError on an empty tuple before the loop).
def stats(t: tuple) -> tuple:
    best = t[0]
    total = 0
    i = 0
    while i < len(t):
        best = max(best, t[i])
        total += t[i]
        i += 1
    return (best, total, len(t))
