# entry: clamp
# `n: int` declares a module input, but the top level also assigns n before reading it:
# on import n is 3 (the declaration binds nothing, the assignment does), and clamp reads
# the module's n and m; an `assert` and a `try` at the top level pass.
n: int
n = 3
m = n * 2
try:
    m = m // (n - 3)
except ZeroDivisionError:
    m = m + 1
assert m == 7

def clamp(v: int) -> int:
    if v < n:
        return n
    if v > m:
        return m
    return v
