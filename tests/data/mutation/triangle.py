# entry: tri
def tri(n: int) -> int:
    s = 0
    for i in range(n):
        s = s + i
    return s
