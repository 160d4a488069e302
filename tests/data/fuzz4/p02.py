x: int
y: int
q = x // y
r = x % y
assert q * y + r == x
s = (-x) // 3 + (-x) % 3
print(q, r, s)
