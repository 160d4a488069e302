def f(n: int, k: int) -> int:
    r = 0
    while n > 0:
        n -= 3
        r += 1
    return k // (n + 2)
