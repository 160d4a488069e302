# entry: lin_srch_rec
# Figure 3 called from a symbolic start (negative indices included).
def lin_srch_rec(a: tuple, x: int, i: int) -> int:
    if i >= len(a):
        return -1
    if a[i] == x:
        return i
    return lin_srch_rec(a, x, i + 1)
