# entry: f
def div(a: int, b: int) -> int:
    requires b != 0
    ensures result * b <= a or b < 0
    return a // b

def f(a: int, b: int) -> int:
    if b == 0:
        return 0
    return div(a, b)
