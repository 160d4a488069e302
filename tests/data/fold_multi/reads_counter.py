# entry: f
# The branch reads the counter: which path an iteration takes depends on the earlier ones.
def f(t: tuple, x: int) -> int:
    i = 0
    c = 0
    while i < len(t):
        if t[i] + c == x:
            c = c + 1
        i = i + 1
    return c * 10 + i
