# entry: f
# Each path changes its own counter by another constant.
def f(t: tuple, x: int) -> int:
    i = 0
    pos = 0
    neg = 0
    while i < len(t):
        if t[i] > x:
            pos = pos + 2
        else:
            neg = neg - 1
        i = i + 1
    return pos * 100 + neg * 10 + i
