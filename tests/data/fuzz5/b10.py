# entry: f
def f(t: tuple) -> tuple:
    if len(t) > 4:
        t = t[:4]
    return t[1::2] + t[::2]
