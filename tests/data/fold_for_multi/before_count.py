# entry: f
# `before` is assigned the counter `c` before this iteration's increment, which differs
# by path (1 or 3): after κ + λ iterations it is read through the prefix counts ω.
def f(t: tuple) -> int:
    c = 0
    before = -1
    for v in t:
        before = c
        if v > 0:
            c += 1
        else:
            c += 3
    return before * 100 + c
