# entry: count_down
# r ↦ r + κ·step: the added value is a parameter the calls do not change.
def count_down(n: int, step: int) -> int:
    if n <= 0:
        return 0
    return step + count_down(n - 1, step)
