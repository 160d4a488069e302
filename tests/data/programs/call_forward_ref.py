# A function may call one defined after it, as long as the call happens after both defs;
# called too early, the later function does not exist yet (NameError).
x: int
b: bool

def first(v: int) -> int:
    return second(v) + 1

r = 0
if b:
    try:
        r = first(x)
    except NameError:
        r = -1

def second(v: int) -> int:
    return v * 3

r = r + first(x)
