# NameError at module level: a variable assigned only on one branch is read later.
x: int
b: bool

if x > 0:
    y = x * 2
if b:
    z = 1
w = 0
try:
    w = z + 1
except NameError:
    w = -1
v = y + 1
