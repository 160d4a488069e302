# entry: gcd3
def gcd3(a: int, b: int) -> int:
    n = 0
    while b != 0 and n < 3:
        r = a % b
        a = b
        b = r
        n += 1
    return a
