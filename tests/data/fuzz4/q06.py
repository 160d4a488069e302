# entry: f
def down(n: int, s: int) -> int:
    if n == 0:
        return 0
    return s + down(n - 1, s)

def f(n: int, s: int) -> int:
    v = down(n, s)
    assert v != 12
    return v
