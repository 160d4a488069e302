# entry: f
def f(a: int, b: int) -> tuple:
    t = (a, b)
    if a > b:
        t = (b, a)
    return t + (t[1] - t[0],)
