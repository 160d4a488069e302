a: int
b: int
c = 0
c //= 1
c += a
c *= b
c %= 5
c -= -a
print(c, abs(c - b), max(a, max(b, c)), min(a, -b))
