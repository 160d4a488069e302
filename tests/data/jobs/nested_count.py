# entry: f
# Issue 31's audit: `check --jobs 2 --unroll 4` ran past 600 s where `--jobs 1` took 300 s
# (nonlinear path conditions: every product of two elements; many calls time out).
def f(t: tuple, x: int) -> int:
    c = 0
    for i in range(len(t)):
        for j in range(len(t)):
            if t[i] * t[j] * t[j] == x * x * x + 42:
                c += 1
    return 10 // (c - 3)
