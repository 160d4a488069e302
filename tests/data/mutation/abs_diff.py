# entry: dist
def dist(a: int, b: int) -> int:
    if a >= b:
        return a - b
    return b - a
