# entry: f
# A constant negative step of 2: every other element from the end.
def f(t: tuple) -> int:
    k = 0
    for i in range(len(t) - 1, -1, -2):
        if t[i] > 0:
            k += 1
    return k * 10 + i
