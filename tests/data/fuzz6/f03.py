# entry: f
def f(n: int) -> int:
    x = 1
    for i in range(n):
        x = x + x
    return x
