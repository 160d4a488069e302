# entry: deep
# A bug 100 calls deep: found at --recursion 3 with the fold.
def down(n: int, k: int) -> int:
    if n <= 0:
        return k
    assert k != 100
    return down(n - 1, k + 1)


def deep(n: int) -> int:
    return down(n, 0)
