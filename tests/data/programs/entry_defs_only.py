# entry: clamp_all
# An entry run analyses the function alone: every `def` runs (so it may call functions
# defined after it), the other module statements do not, so reading a module constant
# raises NameError, here only when `extra` is large.
LIMIT = 4

def clamp_all(t: tuple, extra: int) -> tuple:
    out = ()
    i = 0
    while i < len(t):
        out = out + (clamp(t[i]),)
        i += 1
    if extra > 100:
        out = out + (LIMIT,)
    return out + (clamp(extra),)

def clamp(v: int) -> int:
    return max(-3, min(v, 4))
