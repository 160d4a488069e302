# entry: fib
# Doubly recursive Fibonacci on small arguments (larger ones are cut off, not recursed).
def fib(n: int) -> int:
    if n > 15:
        return -1
    if n <= 1:
        return n
    return fib(n - 1) + fib(n - 2)
