# Recursive factorial: small n works; a huge n exceeds the recursion limit (RecursionError).
n: int

def fact(n: int) -> int:
    if n <= 1:
        return 1
    return n * fact(n - 1)

small = fact(min(n, 12))
r = fact(n)
