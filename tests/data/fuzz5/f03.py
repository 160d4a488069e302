# entry: f
def f(t: tuple, v: int) -> int:
    i = 0
    while i < len(t):
        if t[i] == v:
            return i
        i += 1
    return -1
