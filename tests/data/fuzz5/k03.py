# entry: f
def clamp(x: int, lo: int, hi: int) -> int:
    requires lo <= hi
    ensures lo <= result <= hi
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x

def f(x: int, y: int) -> int:
    return clamp(x, y, y + 5) - y
