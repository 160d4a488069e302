# entry: clamp_all
def clamp_all(t: tuple, lo: int, hi: int) -> tuple:
    out = ()
    for v in t:
        out = out + (min(max(v, lo), hi),)
    return out
