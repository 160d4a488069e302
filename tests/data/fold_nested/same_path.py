# entry: f
# An inner loop whose branch reads nothing it changes: every iteration takes one path,
# and the count follows the path's own step.
def f(m: int, n: int, x: int) -> int:
    s = 0
    i = 0
    while i < m:
        j = 0
        while j < n:
            if x > 0:
                j += 2
                s += 1
            else:
                j += 1
                s += 3
        i += 1
    return s * 100 + i
