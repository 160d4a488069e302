# entry: f
# Issue 31's audit: `check --jobs 2` on a nonlinear nested loop ran past 600 s where
# `--jobs 1` took 300 s. Here deep in the tree (below the workers' top) a few paths ask
# a query Z3 cannot decide (a^3 + b^3 + c^3 = 42): each times out.
def f(t: tuple, a: int, b: int, c: int) -> int:
    n = 0
    for v in t:
        if v > 0:
            n += 1
    if n == 5:
        if a * a * a + b * b * b + c * c * c == 42:
            return 1
    return 0
