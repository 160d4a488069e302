# entry: f
# `for i in range(n)` with a branch on the position.
def f(n: int) -> int:
    c = 0
    for i in range(n):
        if i % 3 == 0:
            c += 2
        else:
            c -= 1
    return c * 10 + n
