# entry: classify
def classify(a: int, b: int) -> int:
    if a == b:
        return 0
    if a + b > 10:
        return 1
    if a - b < -3:
        return 2
    return 3
