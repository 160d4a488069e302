# entry: f
def sumt(t: tuple, i: int) -> int:
    if i >= len(t):
        return 0
    return t[i] + sumt(t, i + 1)

def f(t: tuple) -> int:
    return sumt(t, 0) - sumt(t[::-1], 1)
