# entry: steps
def steps(a: int, b: int) -> int:
    n = 0
    while a < b and n < 3:
        a = a + 2
        n += 1
    return n * 100 + a
