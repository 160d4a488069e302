x: int
def g(n: int) -> int:
    print(n)
    return n * 2

y = g(x) if x > 0 else g(-x) + g(1)
print(y)
