def f(a: int) -> int:
    if a > 0:
        return 1
