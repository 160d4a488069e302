# Issue 31's backwards search: i = len(t); while i > 0: i -= 1 ..., then 10 // i.
def f(t: tuple, x: int) -> int:
    i = len(t)
    while i > 0:
        i -= 1
        if t[i] == x:
            break
    else:
        return -1
    return 10 // i
