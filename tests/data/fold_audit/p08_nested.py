def f(t: tuple) -> int:
    i = 0
    best = 0
    while i < len(t):
        j = i
        while j < len(t) and t[j] > 0:
            j += 1
        if j - i > best:
            best = j - i
        i += 1
    assert best != 2
    return best
