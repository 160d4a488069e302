# entry: middle
# Indexing inside a function with computed (possibly negative) indices.
def middle(t: tuple, k: int) -> int:
    m = len(t) // 2
    left = t[m - k]
    right = t[m + k]
    return left - right
