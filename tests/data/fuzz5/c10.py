x: int
t = (x, x * x, -x)
s = 0
for v in t:
    s += v % 3 - v // 3
print(s, t)
