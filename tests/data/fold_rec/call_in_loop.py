# entry: count_big
# A loop whose body calls a function without loops: folded through the call (issue 27).
def magnitude(v: int) -> int:
    if v < 0:
        return -v
    return v


def count_big(t: tuple, lim: int) -> int:
    i = 0
    n = 0
    while i < len(t):
        if magnitude(t[i]) > lim:
            n = n + 1
        i = i + 1
    return n


def first_big(t: tuple, lim: int) -> int:
    i = 0
    while i < len(t):
        if magnitude(t[i]) > lim:
            return i
        i = i + 1
    return -1


def slow(x: int) -> int:
    while x > 0:
        x -= 1
    return x


def no_fold(t: tuple) -> int:
    i = 0
    while i < len(t):
        i = i + 1 + slow(t[i])
    return i
