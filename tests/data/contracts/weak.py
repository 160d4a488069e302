def inc(x: int) -> int:
    ensures result > x
    return x + 1


def g(x: int, y: int) -> int:
    r = inc(x)
    if y > r:
        return 1
    if r > x + 1:
        return 2
    return 0
