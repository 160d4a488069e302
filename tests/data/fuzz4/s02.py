x: int
def f(v: int) -> int:
    print(v, -v)
    if v > 3:
        return f(v - 2) + 1
    return 0
try:
    print(f(x), 10 // (x - 7))
except ZeroDivisionError:
    print(-1)
