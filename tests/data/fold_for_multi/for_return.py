# entry: f
# An exit in the body: the first element equal to x returns the count so far.
def f(t: tuple, x: int) -> int:
    k = 0
    for v in t:
        if v == x:
            return k * 10 + v
        if v > 0:
            k += 1
        else:
            k -= 2
    return -k
