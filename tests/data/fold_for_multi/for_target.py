# entry: f
# Both branches count; the loop target is read after the loop (unbound for an empty t).
def f(t: tuple, x: int) -> int:
    pos = 0
    other = 0
    for v in t:
        if v > x:
            pos += 1
        else:
            other += 2
    return pos * 100 + other * 10 + v
