# entry: f
# An assertion after the split reads the counter: an exit on each path.
def f(t: tuple, x: int) -> int:
    i = 0
    c = 0
    while i < len(t):
        if t[i] == x:
            c = c + 1
        assert c < 2
        i = i + 1
    return c * 10 + i
