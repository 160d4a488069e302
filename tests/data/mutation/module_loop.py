# Module run: a tuple input and a threshold.
t: tuple
k: int
hits = 0
for v in t:
    if v >= k:
        hits += 2
    else:
        hits -= 1
