# A sum of the last m elements through t[-1 - k].
def f(t: tuple, m: int) -> int:
    s = 0
    k = 0
    while k < m and k < len(t):
        s += t[-1 - k]
        k += 1
    return 10 // (s - 4)
