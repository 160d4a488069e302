# entry: f
def g(n: int) -> int:
    if n <= 0:
        return 7
    return g(n - 2)

def f(n: int) -> int:
    return g(n) + g(n + 1)
