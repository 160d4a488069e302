# entry: split
# Floor division and remainder of a signed value: quotient and remainder by 7.
def split(a: int, b: int) -> int:
    q = a // 7
    r = a % 7
    if b > 2:
        return q * 10 + r
    return q - r
