# entry: f
def f(t: tuple, a: int) -> int:
    u = t[a:a + 2]
    if len(u) == 2:
        return u[0] - u[1]
    return len(u) if a > 0 else -len(u)
