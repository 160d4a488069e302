# entry: count_if
# The paper's Figure 4 (a): countIf with two recursive calls (one folds, the other is
# an exit that calls again).
def count_if_rec(a: tuple, x: int, i: int) -> int:
    if i >= len(a):
        return 0
    if a[i] == x:
        return 1 + count_if_rec(a, x, i + 1)
    return count_if_rec(a, x, i + 1)


def count_if(a: tuple, x: int) -> int:
    return count_if_rec(a, x, 0)
