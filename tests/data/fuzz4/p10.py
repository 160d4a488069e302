# entry: h
def h(a: int, b: int) -> tuple:
    r = ()
    for i in range(a, b, 3):
        r = r + (i,)
    for j in range(b, a, -2):
        r += (j,)
    return r
