# A reflected index t[-k - 1] in a for loop.
def f(t: tuple, x: int) -> int:
    for k in range(len(t)):
        if t[-k - 1] == x:
            return 10 // (len(t) - k - 1)
    return -1
