# A bounded Collatz walk: while with a step budget, // and % on possibly negative values.
n: int

k = n
steps = 0
while k != 1 and steps < 40:
    if k % 2 == 0:
        k = k // 2
    else:
        k = 3 * k + 1
    steps += 1
else:
    steps = steps + 1000
