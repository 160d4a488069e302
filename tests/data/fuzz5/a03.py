# entry: f
def f(t: tuple) -> int:
    best = -1
    for i in range(len(t) - 1, -1, -1):
        if t[i] < 0:
            continue
        if t[i] % 2 == 0:
            best = i
            break
    else:
        best = -len(t)
    return best
