# entry: f
def f(n: int) -> int:
    return n
    print(n)
