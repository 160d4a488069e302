# entry: f
def fact(n: int) -> int:
    requires n >= 0
    ensures result >= 1
    if n == 0:
        return 1
    return n * fact(n - 1)

def f(n: int) -> int:
    if n > 3:
        return fact(n) % 7
    return fact(n + 1)
