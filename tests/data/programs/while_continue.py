# continue skips the rest of the body but still re-tests the guard; else still runs.
t: tuple

i = 0
pos = 0
neg = 0
zeros = 0
while i < len(t):
    v = t[i]
    i += 1
    if v > 0:
        pos = pos + v
        continue
    if v == 0:
        zeros += 1
        continue
    neg = neg + v
else:
    zeros = zeros * 10
