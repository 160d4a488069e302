# entry: f
def f(t: tuple) -> int:
    i = 0
    s = 0
    while i < len(t):
        s = s + t[i] * 2
        i += 1
    return s
