# entry: f
def f(n: int) -> int:
    i = n
    c = 0
    while i != 0:
        i = i - 1 if i > 0 else i + 1
        c += 1
    return c
