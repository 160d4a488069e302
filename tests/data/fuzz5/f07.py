# entry: f
def f(a: int, b: int) -> int:
    i = a
    c = 0
    while i < b:
        i += 1
        c -= 1
        if c == -7:
            break
    return c + i
