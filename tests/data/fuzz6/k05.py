t: tuple
i = 0
c = 0
while i < len(t):
    invariant 0 <= i <= len(t)
    invariant 0 <= c <= i
    if t[i] > 0:
        c += 1
    i += 1
assert c <= len(t)
