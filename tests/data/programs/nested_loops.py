# break only leaves the innermost loop; the outer loop's else still runs.
n: int
t: tuple

m = min(abs(n), 5)
pairs = 0
i = 0
while i < m:
    j = 0
    while j < len(t):
        if t[j] == i:
            break
        if t[j] < 0:
            j += 1
            continue
        pairs += 1
        j += 1
    else:
        pairs = pairs + 100
    i += 1
else:
    pairs = -pairs
