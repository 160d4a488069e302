# entry: digits
def digits(n: int) -> int:
    if n < 0:
        n = -n
    d = 1
    while n >= 10:
        n //= 10
        d += 1
    return d
