# entry: clamp10
def clamp10(x: int) -> int:
    if x <= -10:
        return -10
    elif x >= 10:
        return 10
    return x
