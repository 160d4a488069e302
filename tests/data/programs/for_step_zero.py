# A symbolic step: `range` raises ValueError when it is zero (after evaluating all its
# arguments), loops up or down by its sign otherwise.
a: int
s: int
steps = 0
acc = 0
for v in range(max(min(a, 5), -5), 0, max(min(s, 3), -3)):
    steps += 1
    acc += v
r = steps * 100 + acc
