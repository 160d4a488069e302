# entry: bsearch
def find(t: tuple, x: int, lo: int, hi: int) -> int:
    if lo >= hi:
        return -1
    mid = (lo + hi) // 2
    if t[mid] == x:
        return mid
    if t[mid] < x:
        return find(t, x, mid + 1, hi)
    return find(t, x, lo, mid)

def bsearch(t: tuple, x: int) -> int:
    return find(t, x, 0, len(t))
