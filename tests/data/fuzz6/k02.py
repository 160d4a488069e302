n: int
assume n >= 0
i = 0
s = 0
while i < n:
    invariant 0 <= i <= n
    invariant s == i * 2
    s += 2
    i += 1
assert s == 2 * n
