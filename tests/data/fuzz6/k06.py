# entry: f
def absdiff(a: int, b: int) -> int:
    ensures result >= 0
    ensures result == a - b or result == b - a
    if a > b:
        return a - b
    return b - a

def f(x: int) -> int:
    return absdiff(x, 3) + absdiff(-x, 3)
