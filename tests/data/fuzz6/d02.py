# entry: power
def power(b: int, e: int) -> int:
    if e <= 0:
        return 1
    h = power(b, e // 2)
    if e % 2 == 1:
        return h * h * b
    return h * h
