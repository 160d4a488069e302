# entry: max3
def max3(a: int, b: int, c: int) -> int:
    m = a
    if b > m:
        m = b
    if c > m:
        m = c
    return m
