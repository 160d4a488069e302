# entry: tri
def tri(n: int) -> int:
    s = 0
    i = 0
    while i < n:
        i += 1
        s += i
    return s
