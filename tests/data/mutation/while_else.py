# entry: div_at
def div_at(t: tuple, x: int) -> int:
    i = len(t)
    while i > 0:
        i -= 1
        if t[i] == x:
            break
    else:
        return -1
    return 10 // (i + 1)
