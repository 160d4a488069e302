# entry: f
def f(a: int) -> int:
    i = 0
    while i * i < a:
        i += 1
    return i
