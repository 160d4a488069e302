# entry: f
def r(n: int, acc: int) -> int:
    if n <= 0:
        return acc
    return r(n - 3, acc)

def f(n: int) -> int:
    return r(n, n) + r(-n, 1)
