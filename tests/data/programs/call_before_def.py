# NameError: calling a function before its `def` has run.
x: int
b: bool

r = 0
if b and x > 0:
    r = late(x)

def late(v: int) -> int:
    return v * 2

r = r + late(x)
