# entry: f
def f(n: int) -> int:
    s = 0
    for i in range(n, 0, -1):
        s += 1
    return s
