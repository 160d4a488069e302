# entry: f
def f(n: int, x: int) -> int:
    c = 0
    for i in range(n):
        c -= 2
    if c == x:
        return 1
    return 0
