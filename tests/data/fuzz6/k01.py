# entry: f
def half(n: int) -> int:
    requires n >= 0
    ensures 0 <= result <= n
    return n // 2

def f(a: int) -> int:
    if a < 0:
        return 0
    return half(a) + half(a + 1)
