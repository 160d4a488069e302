# Neighbours compared from the end (two descending reads per iteration).
def f(t: tuple) -> bool:
    i = len(t) - 1
    while i > 0:
        if t[i] != t[i - 1]:
            return False
        i -= 1
    return True
