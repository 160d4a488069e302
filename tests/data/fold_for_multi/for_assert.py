# entry: f
# The counter reaching 2 fails the assertion; break on a negative element.
def f(t: tuple) -> int:
    c = 0
    for v in t:
        if v < 0:
            break
        if v == 1:
            c += 1
        assert c < 2
    return c * 10 + v
