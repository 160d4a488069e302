# An exception three iterations into a folded loop (issue 27): the leaf's store and model
# are the values at the raise (i = κ1 = 3, q = -12), not the loop head's (i = 0, q = 0).
def f(n: int) -> int:
    i = 0
    q = 0
    while i < n:
        q = 12 // (i - 3)
        i += 1
    return q
