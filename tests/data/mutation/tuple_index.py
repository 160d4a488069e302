# entry: pick
def pick(t: tuple, k: int) -> int:
    if 0 <= k and k < len(t):
        return t[k] + k
    return t[-1]
