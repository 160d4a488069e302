# entry: sum_range
def sum_range(a: int, b: int) -> int:
    s = 0
    for i in range(a, b, 2):
        s += i
    return s
