# entry: skip_pairs
# Two paths that advance the index by different steps: a zero skips the next element.
def skip_pairs(t: tuple) -> int:
    i = 0
    k = 0
    while i < len(t):
        if t[i] == 0:
            i += 2
            k += 1
        else:
            i += 1
    return k * 100 + i
