# entry: f
def f(a: int, b: int) -> bool:
    return (a < b) == (b > a) and not (a == b and a != b) or a > 100
