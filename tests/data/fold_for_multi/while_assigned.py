# entry: f
# A `while` whose body assigns `last` the same value on both paths: folds from the first
# head (κ + λ = 0 keeps `last = -5`).
def f(t: tuple, x: int) -> int:
    i = 0
    k = 0
    last = -5
    while i < len(t):
        last = t[i]
        if last >= x:
            k += 1
        i += 1
    return k * 100 + last
