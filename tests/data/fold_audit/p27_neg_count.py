def f(a: int, b: int) -> int:
    q = 0
    while a >= b and b > 0:
        a -= b
        q += 1
    return -a // (q - 1)
