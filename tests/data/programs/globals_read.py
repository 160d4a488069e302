# Functions read module globals; they see the value the global has at call time.
x: int
t: tuple

def scale(v: int) -> int:
    return v * factor + len(base)

def first_or_offset() -> int:
    if len(base) > 0:
        return base[0]
    return offset

factor = 2
base = t
offset = x
a = scale(x)
factor = 3
base = base + (x,)
b = scale(x)
c = first_or_offset()
offset = -offset
base = ()
d = first_or_offset()
