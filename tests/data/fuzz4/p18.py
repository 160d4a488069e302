x: int
def f(n: int) -> int:
    if n <= 0:
        return 0
    return f(n - 1) + 2
def g(n: int) -> int:
    return f(n) // 2 - n
y = g(x)
print(y)
assert y == 0 or x < 0
