# entry: f
def f(t: tuple) -> int:
    requires len(t) > 0
    ensures result >= t[0]
    m = t[0]
    for v in t:
        if v > m:
            m = v
    return m
