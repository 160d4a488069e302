# entry: insertion_sort
# Sorting by building new tuples (tuples are immutable).
def insert(s: tuple, v: int) -> tuple:
    out = ()
    i = 0
    while i < len(s) and s[i] <= v:
        out = out + (s[i],)
        i += 1
    out = out + (v,)
    while i < len(s):
        out = out + (s[i],)
        i += 1
    return out

def insertion_sort(t: tuple) -> tuple:
    s = ()
    i = 0
    while i < len(t):
        s = insert(s, t[i])
        i += 1
    return s
