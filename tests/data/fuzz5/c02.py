x: int
q = x // -3
r = x % -3
assert q * -3 + r == x
print(q, r, (-x) % 3, -(x % 3))
