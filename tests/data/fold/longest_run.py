# The longest run of positive elements, with nested loops (issue 31: `testgen` and
# `check` lost a leaf's model that `run` found at once, and `check --jobs 2` differed
# from `--jobs 1`; `--unroll 4 --fold auto --entry f`).
def f(t: tuple) -> int:
    best = 0
    for i in range(len(t)):
        n = 0
        for j in range(i, len(t)):
            if t[j] <= 0:
                break
            n += 1
        if n > best:
            best = n
    return best
