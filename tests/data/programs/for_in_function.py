# entry: count_above
# A `for` inside a function: its variable is a local; `return` from inside the loop.
def count_above(t: tuple, lo: int) -> int:
    c = 0
    for i in range(len(t) - 1, -1, -1):
        if t[i] > lo:
            c += 1
        if c > 2:
            return -i
    for e in t:
        if e == lo:
            return c + 100
    return c
