# entry: clamp_all
# An entry run executes the module body first: the function reads the module's constants.
LOW = -3
HIGH = 4
EMPTY = ()

def clamp(v: int) -> int:
    return max(LOW, min(v, HIGH))

def clamp_all(t: tuple, extra: int) -> tuple:
    out = EMPTY
    i = 0
    while i < len(t):
        out = out + (clamp(t[i]),)
        i += 1
    return out + (clamp(extra),)
