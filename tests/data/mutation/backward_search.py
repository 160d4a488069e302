# entry: rfind
def rfind(t: tuple, x: int) -> int:
    i = len(t)
    while i > 0:
        i -= 1
        if t[i] == x:
            return i
    return -1
