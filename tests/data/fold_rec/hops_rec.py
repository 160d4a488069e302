# entry: hops
# Two call paths with different strides: a zero is hopped over (i + 2), anything else is
# stepped (i + 1); the index on each call depends on how many hops came before it.
def hops_rec(t: tuple, i: int) -> int:
    if i >= len(t):
        return 0
    if t[i] == 0:
        return 1 + hops_rec(t, i + 2)
    return hops_rec(t, i + 1)


def hops(t: tuple) -> int:
    return hops_rec(t, 0)
