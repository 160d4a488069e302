# A bug 100 iterations deep: classic unrolling needs --unroll 101 to see it.
def deep(t: tuple, x: int) -> int:
    i = 0
    while i < len(t):
        if t[i] == x:
            assert i < 100
            return i
        i += 1
    return -1
