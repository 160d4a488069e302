# entry: rows
# An inner loop with a closed form: n iterations (none when n <= 0) adding 1 to s.
def rows(m: int, n: int) -> int:
    s = 0
    i = 0
    while i < m:
        j = 0
        while j < n:
            s += 1
            j += 1
        i += 1
    return s * 100 + i
