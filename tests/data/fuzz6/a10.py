# entry: gcd
def gcd(a: int, b: int) -> int:
    if a <= 0 or b <= 0:
        return 0
    n = 0
    while a != b and n < 4:
        if a > b:
            a -= b
        else:
            b -= a
        n += 1
    return a
