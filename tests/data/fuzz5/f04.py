# entry: f
def f(n: int) -> int:
    k = n
    c = 0
    while k > 0:
        k -= 1
        c += 2
    return c - n
