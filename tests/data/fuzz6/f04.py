# entry: f
def f(n: int, step: int) -> int:
    if step <= 0 or n > 40:
        return -1
    i = 0
    while i < n:
        i += step
    return i
