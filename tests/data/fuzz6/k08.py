# entry: f
def f(n: int) -> int:
    requires n >= 1
    ensures result % 2 == 0 and result >= n
    return n * 2 + n % 2 * 2
