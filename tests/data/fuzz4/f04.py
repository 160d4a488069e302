# entry: f
def f(t: tuple) -> int:
    i = 0
    while i < len(t):
        if t[-1 - i] == 0:
            break
        i += 1
    return i
