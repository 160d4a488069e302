# entry: f
def f(t: tuple) -> int:
    i = len(t) - 1
    while i >= 0:
        if t[i] < 0:
            break
        i -= 1
    else:
        return -100
    return i
