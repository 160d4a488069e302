# entry: ratio
def ratio(a: int, b: int) -> int:
    if b == 0:
        return 0
    return (a * 10) // b
