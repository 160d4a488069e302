# entry: sum_rec
# No template: a sum over the tuple, and a return phase that branches on the result.
def sum_rec(a: tuple, i: int) -> int:
    if i >= len(a):
        return 0
    return a[i] + sum_rec(a, i + 1)


def branchy(n: int) -> int:
    if n <= 0:
        return 0
    r = branchy(n - 1)
    if r > 5:
        return r
    return r + 1
