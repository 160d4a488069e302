# entry: f
def f(x: int) -> int:
    if x // 4 == -2:
        return 1
    if x % 4 == 3 and x < 0:
        return 2
    if -x % 5 == 1:
        return 3
    return 0
