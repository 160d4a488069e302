# entry: f
def f(n: int) -> int:
    for i in range(n):
        pass
    return i
