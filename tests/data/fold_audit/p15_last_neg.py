def f(t: tuple) -> int:
    last = -1
    for i in range(len(t) - 1, -1, -1):
        if t[i] < 0:
            last = i
            break
    return t[last]
