# entry: f
def f(n: int, m: int) -> int:
    s = 0
    for i in range(n, m, -2):
        s -= 1
    return s + i
