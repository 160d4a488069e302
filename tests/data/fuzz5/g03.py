# entry: f
def f(a: int) -> int:
    b = a // 3
    r = a % 3
    if b * 3 + r != a:
        return -1
    if r < 0:
        return -2
    try:
        return 10 // (r + 1)
    except ZeroDivisionError:
        return -3
