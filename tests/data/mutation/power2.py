# entry: pow2
def pow2(n: int) -> int:
    p = 1
    k = 0
    while k < n:
        p = p * 2
        k += 1
    return p
