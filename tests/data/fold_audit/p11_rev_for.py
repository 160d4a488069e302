def f(t: tuple) -> int:
    for i in range(len(t)):
        if t[-i - 1] < 0:
            return t[-i - 2]
    return 0
