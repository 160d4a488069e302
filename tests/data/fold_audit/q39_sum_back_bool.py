def f(t: tuple) -> bool:
    i = len(t) - 1
    found = False
    while i >= 0 and not found:
        found = t[i] == 7
        i -= 1
    assert not (found and i == 0)
    return found
