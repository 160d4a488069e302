# entry: median
def median(a: int, b: int, c: int) -> int:
    if a > b:
        s = a
        a = b
        b = s
    if b > c:
        b = c
    if a > b:
        return a
    return b
