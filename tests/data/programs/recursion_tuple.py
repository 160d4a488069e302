# entry: sum_from
# Recursion over a tuple by index; a negative start index that is too small raises
# IndexError deep inside the recursion.
def sum_from(t: tuple, i: int) -> int:
    if i >= len(t):
        return 0
    return t[i] + sum_from(t, i + 1)
