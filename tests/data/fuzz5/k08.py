# entry: f
def f(n: int) -> int:
    i = 0
    while i < n:
        invariant i <= n
        i += 3
    assert i == n
    return i
