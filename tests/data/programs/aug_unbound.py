# entry: tally
# `acc += v` reads acc first: UnboundLocalError when no branch assigned it yet; `except
# NameError` catches it (UnboundLocalError is a NameError).
def bump(v: int) -> int:
    if v > 0:
        acc = 10
    acc += v
    return acc

def tally(v: int, w: int) -> int:
    r = 0
    try:
        r = bump(v)
    except NameError:
        r = -1
    return r + bump(w)
