def f(t: tuple) -> int:
    i = len(t)
    while i > 0:
        i -= 1
        if t[i] == 1:
            continue
        if t[i] == 2:
            break
    return 9 // i
