x: int
def f(v: int) -> int:
    if v == 0:
        return 0
    return 1 + f(v - 1)
print(f(x))
