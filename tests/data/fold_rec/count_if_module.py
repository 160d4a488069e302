# Figure 4's countIf called from module code: the final variables are compared too.
t: tuple
x: int


def count_if_rec(a: tuple, x: int, i: int) -> int:
    if i >= len(a):
        return 0
    if a[i] == x:
        return 1 + count_if_rec(a, x, i + 1)
    return count_if_rec(a, x, i + 1)


n: int = count_if_rec(t, x, 0)
rest: int = len(t) - n
