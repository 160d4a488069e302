# entry: count_in
def count_in(t: tuple, lo: int, hi: int) -> int:
    n = 0
    for v in t:
        if lo <= v and v < hi:
            n = n + 1
    return n
