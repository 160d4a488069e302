# entry: f
def deep(n: int) -> int:
    return deep(n + 1)

def f(x: int) -> int:
    if x > 0:
        return deep(x)
    return 0
