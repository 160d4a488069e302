# entry: f
def f(s: int) -> int:
    c = 0
    while True:
        if s % 7 == 0:
            break
        s = s // 2
        c += 1
        if c == 3:
            return -c
    return c
