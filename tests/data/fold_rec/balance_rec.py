# entry: balance
# Two call paths that change a parameter in opposite directions, an assert on the call
# path (an exception exit), and the result carried in the parameter.
def balance_rec(t: tuple, i: int, n: int) -> int:
    if i >= len(t):
        return n
    assert t[i] != 1
    if t[i] < 0:
        return balance_rec(t, i + 1, n - 1)
    return balance_rec(t, i + 1, n + 1)


def balance(t: tuple) -> int:
    return balance_rec(t, 0, 10)
