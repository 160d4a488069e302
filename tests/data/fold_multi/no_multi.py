# entry: f
# No two-parameter template: a path resets a variable, three paths come back.
def f(t: tuple, x: int) -> int:
    i = 0
    last = 0
    while i < len(t):
        if t[i] == x:
            last = i
        i = i + 1
    return last


def g(t: tuple, x: int) -> int:
    i = 0
    c = 0
    while i < len(t):
        if t[i] == x:
            c = c + 1
        elif t[i] > x:
            c = c + 2
        i = i + 1
    return c
