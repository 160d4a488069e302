# entry: swap_first
def swap_first(t: tuple) -> int:
    if len(t) >= 2 and t[0] > t[1]:
        return t[1] - t[0]
    if len(t) == 1:
        return t[0] + 1
    return len(t)
