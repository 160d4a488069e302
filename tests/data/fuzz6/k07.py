x: int
y: int
assume x > y
havoc y
assert x > y
