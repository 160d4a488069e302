# UnboundLocalError: a function that assigns `level` somewhere makes `level` local in the
# whole body, so reading it first does not read the global of the same name.
x: int

level = 5

def raise_level(v: int) -> int:
    if v > 2:
        level = 0
    level = level + v
    return level

def read_level(v: int) -> int:
    return level + v

a = read_level(x)
b = 0
try:
    b = raise_level(x)
except UnboundLocalError:
    b = -1
except NameError:
    b = -2
c = raise_level(x)
