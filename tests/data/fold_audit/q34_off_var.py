def f(t: tuple, k: int) -> int:
    i = 0
    n = len(t) - k
    while i < n and n <= len(t):
        if t[n - i - 1] < 0:
            return 9 // (n - i - 2)
        i += 1
    return 0
