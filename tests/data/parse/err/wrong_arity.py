def f(a: int) -> int:
    return a

y = f(1, 2)
