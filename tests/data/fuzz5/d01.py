# entry: f
def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

def f(n: int) -> int:
    if n > 5:
        return -1
    return fib(n)
