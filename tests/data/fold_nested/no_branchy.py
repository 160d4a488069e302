# entry: f
# Outer loops over an inner loop with a branch whose count has no closed form.
def f(t: tuple, x: int, n: int) -> int:
    c = 0
    i = 0
    while i < n:
        j = 0
        while j < len(t):
            if t[j] == x:
                c += 1
            j += 1
        i += 1
    i = 0
    while i < n:
        j = 0
        while j < n:
            if j == x:
                c += 1
            j += 1
        i += 1
    i = 0
    while i < n:
        j = 0
        while j < n:
            if j < x:
                j += 2
            else:
                j += 1
        i += 1
    i = 0
    while i < n:
        j = 0
        while j < n:
            if j % 2 == 0:
                c += 1
            j += 1
        i += 1
    return c
