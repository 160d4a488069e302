# One tuple read forwards, the other backwards (u[n - 1 - k]).
def f(t: tuple, u: tuple) -> int:
    if len(t) != len(u):
        return -1
    n = len(t)
    k = 0
    while k < n:
        if t[k] != u[n - 1 - k]:
            return k
        k += 1
    return 100 // (n - 2)
