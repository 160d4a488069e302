# A reflected index t[-k - 1] in a while loop.
def f(t: tuple, x: int) -> int:
    k = 0
    while k < len(t):
        if t[-k - 1] == x:
            return 10 // k
        k += 1
    return -1
