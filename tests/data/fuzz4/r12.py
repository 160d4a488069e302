# entry: f
def f(n: int) -> int:
    if n < 0:
        return f(-n)
    if n < 2:
        return n
    return f(n - 1) + f(n - 2)
