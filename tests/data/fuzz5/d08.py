# entry: f
def down(n: int) -> int:
    return down(n - 1) if n > 0 else n

def f(n: int) -> int:
    return down(n) + down(-n)
