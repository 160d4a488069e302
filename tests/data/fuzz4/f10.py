# entry: f
def f(n: int, t: tuple) -> int:
    i = 0
    j = 0
    while i < n:
        j += 1
        i += 1
        if j == len(t):
            break
    else:
        return -j
    return t[j - 1]
