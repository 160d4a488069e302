# entry: f
def f(t: tuple, i: int) -> int:
    try:
        return t[i] + t[-i - 1]
    except IndexError:
        return -100
