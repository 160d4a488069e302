# entry: f
def f(n: int) -> int:
    j = 10
    while j > n:
        j -= 2
    return j
