def f(a: int) -> int:
    return (a + 1

x = f(2)
