# A failing assert is an uncaught AssertionError; the variables assigned so far stay.
x: int
y: int

s = x + y
assert s != 0
d = x - y
assert d >= -3
m = s * d
assert m < 20
