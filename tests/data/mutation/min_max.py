# entry: spread
def spread(a: int, b: int, c: int) -> int:
    return max(a, max(b, c)) - min(a, min(b, c))
