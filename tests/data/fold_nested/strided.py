# entry: f
# The inner loop counts down by 2 (⌈len(t)/2⌉ iterations); an assertion after it.
def f(t: tuple, m: int) -> int:
    c = 0
    i = 0
    while i < m:
        j = len(t) - 1
        while j >= 0:
            c += 3
            j -= 2
        assert c != 6
        i += 1
    return c * 10 + j
