# entry: safe_depth
# A handler that recurses: each level catches the ZeroDivisionError of its own division
# and recurses with a smaller divisor budget.
def safe_depth(a: int, b: int) -> int:
    if b < -3 or b > 3:
        return 100
    try:
        return a // b
    except ZeroDivisionError:
        return safe_depth(a + 1, b - 1) * 2
