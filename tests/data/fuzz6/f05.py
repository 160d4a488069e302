# entry: f
def f(n: int) -> int:
    if n <= 0:
        return 0
    return n + f(n - 1)
