# entry: f
# The condition reads `prev`, the previous iteration's element: no two-parameter template.
def f(t: tuple) -> int:
    prev = 0
    k = 0
    for v in t:
        if v > prev:
            k += 1
        prev = v
    return k
