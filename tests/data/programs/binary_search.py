# entry: bsearch
# Binary search with // on the midpoint; on unsorted input it still terminates.
def bsearch(t: tuple, x: int) -> int:
    lo = 0
    hi = len(t)
    while lo < hi:
        mid = (lo + hi) // 2
        if t[mid] < x:
            lo = mid + 1
        elif t[mid] > x:
            hi = mid
        else:
            return mid
    return -(lo + 1)
