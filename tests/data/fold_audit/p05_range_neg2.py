def f(n: int) -> int:
    c = 0
    for i in range(n, 0, -2):
        c += 1
    assert c < 3
    return c
