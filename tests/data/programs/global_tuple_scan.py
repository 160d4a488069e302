# Functions reading a module tuple and a module int, with loops and early returns.
t: tuple
x: int

def count_below(limit: int) -> int:
    c = 0
    i = 0
    while i < len(t):
        if t[i] < limit:
            c += 1
        i += 1
    return c

def index_of_max() -> int:
    if len(t) == 0:
        return -1
    best = 0
    i = 1
    while i < len(t):
        if t[i] > t[best]:
            best = i
        i += 1
    return best

below = count_below(x)
m = index_of_max()
top = t[m]
