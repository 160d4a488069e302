# entry: f
def f(t: tuple, k: int) -> int:
    for x in t:
        try:
            if x == k:
                return 10 // (x - 1)
        except ZeroDivisionError:
            return -1
    return len(t)
