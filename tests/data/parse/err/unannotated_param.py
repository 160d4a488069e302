def f(a, b: int) -> int:
    return a + b
