def f(a: int) -> int:
    b = a + 1
    return b
x: int
y = f(x)
z = y * 2
