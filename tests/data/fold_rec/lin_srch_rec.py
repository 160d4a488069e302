# entry: lin_srch
# The paper's Figure 3: a recursive linear search (r ↦ r).
def lin_srch_rec(a: tuple, x: int, i: int) -> int:
    if i >= len(a):
        return -1
    if a[i] == x:
        return i
    return lin_srch_rec(a, x, i + 1)


def lin_srch(a: tuple, x: int) -> int:
    return lin_srch_rec(a, x, 0)
