# entry: sat_add
def sat_add(a: int, b: int) -> int:
    s = a + b
    if s > 100:
        return 100
    if s < -100:
        return -100
    return s
