# entry: f
# UnboundLocalError: a local assigned on one branch only is read on the other.
def f(x: int, b: bool) -> int:
    if x > 0:
        y = x * 2
    if b:
        y = 7
    return y + 1
