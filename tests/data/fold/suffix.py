# A reflected index (issue 31): the fold's quantifier reads t[-τ1 - 1] (a suffix from the
# end), read ascending by the position translation.
def f(t: tuple, x: int) -> int:
    k = 0
    while k < len(t):
        if t[-k - 1] == x:
            break
        k += 1
    else:
        return -1
    return 10 // (len(t) - k - 1)
