# A descending for loop (range(len(t) - 1, -1, -1)) searching backwards.
def f(t: tuple, x: int) -> int:
    for i in range(len(t) - 1, -1, -1):
        if t[i] == x:
            return 10 // i
    return -1
