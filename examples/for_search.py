# `for` loops (issue 25): a search over indices, a count over elements, a loop down
# with a negative step, and `for ... else`.
def find(t: tuple, v: int) -> int:
    for i in range(len(t)):
        if t[i] == v:
            return i
    return -1

def count(t: tuple, v: int) -> int:
    n = 0
    for x in t:
        if x == v:
            n += 1
    return n

def last_below(t: tuple, v: int) -> int:
    for i in range(len(t) - 1, -1, -1):
        if t[i] < v:
            break
    else:
        return -1
    return i

# Run as a module, the calls below run on constants; `--entry find` (or `count`,
# `last_below`) analyses a function for all inputs.
where = find((3, 1, 4), 1)
below = last_below((5, 2, 8), 4)
