# entry: f
def g(t: tuple, k: int) -> int:
    if k >= len(t):
        return 0
    return t[k] + g(t, k + 2)

def f(t: tuple, k: int) -> int:
    if k < 0:
        return -g(t, -k)
    r = g(t, k)
    return r if r % 2 == 0 else -r
