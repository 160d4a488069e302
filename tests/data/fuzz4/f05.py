# entry: f
def f(t: tuple, x: int) -> int:
    k = 0
    for v in t:
        if v == x:
            k += 1
        else:
            k -= 2
    return k
