# entry: f
def f(n: int) -> int:
    requires n >= 0
    ensures result == n * 2
    i = 0
    s = 0
    while i < n:
        invariant 0 <= i <= n
        invariant s == 2 * i
        s += 2
        i += 1
    return s
