# entry: f
def f(n: int) -> int:
    s = 0
    for i in range(0, n, 3):
        s += 2
        assert s < 40
    return s
