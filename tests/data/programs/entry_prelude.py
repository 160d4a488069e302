# entry: clamp_all
# An entry run analyses the function alone, after the module's prelude: every `def` and
# every assignment of a constant that reads no input (nor anything the prelude skipped).
# `OFFSET = n + 1` reads the input n, so it is skipped and reading OFFSET raises NameError
# (here only when `extra` is large); the driver code at the end does not run either.
n: int

LIMIT = 4
LOW = 1 - LIMIT
OFFSET = n + 1
EMPTY = ()

def clamp(v: int) -> int:
    return max(LOW, min(v, LIMIT))

PAIR = (clamp(-10), clamp(10))
LIMIT += 1

def clamp_all(t: tuple, extra: int) -> tuple:
    out = EMPTY
    i = 0
    while i < len(t):
        out = out + (clamp(t[i]),)
        i += 1
    if extra > 100:
        out = out + (OFFSET,)
    return out + PAIR + (clamp(extra),)

r = clamp_all((n,), n)
