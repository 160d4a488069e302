# entry: f
# Outer loops whose inner loop has no closed form, or whose sum has none.
def f(t: tuple, n: int) -> int:
    s = 0
    i = 0
    while i < n:
        j = 0
        while j < len(t):
            if t[j] == i:
                break
            j += 1
        s += j
        i += 1
    i = 0
    while i < len(t):
        j = i
        while j < len(t):
            s += 1
            j += 1
        i += 1
    i = 0
    while i < n:
        j = 0
        while j < n:
            s = j
            j += 1
        i += 1
    return s
