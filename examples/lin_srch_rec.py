# A recursive linear search (seed 004's Figure 3). With `--fold auto` the recursion is
# folded into one node with a parameter κ1, the number of recursive calls, whatever
# `--recursion` says:
#   symdbg run examples/lin_srch_rec.py --entry lin_srch --fold auto
#   symdbg run examples/lin_srch_rec.py --templates
def lin_srch_rec(a: tuple, x: int, i: int) -> int:
    if i >= len(a):
        return -1
    if a[i] == x:
        return i
    return lin_srch_rec(a, x, i + 1)


def lin_srch(a: tuple, x: int) -> int:
    return lin_srch_rec(a, x, 0)
