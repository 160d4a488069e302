# entry: f
# A third way out of the body (a return) before the two cyclic paths split.
def f(t: tuple, x: int) -> int:
    i = 0
    c = 0
    while i < len(t):
        if t[i] < 0:
            return c * 10 + i
        if t[i] == x:
            c = c + 1
        i = i + 1
    return 1000 + c * 10 + i
