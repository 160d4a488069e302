# Floor division and modulo identities (CPython's signs).
def f(a: int, b: int) -> int:
    if b == 0:
        return 0
    q = a // b
    r = a % b
    if q * b + r != a:
        return 1 // 0
    if r < 0 and b > 0:
        return 1 // 0
    return q - r
