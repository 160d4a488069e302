# `for` over range(stop), range(start, stop), range(start, stop, step) with symbolic
# bounds, both signs of step, zero iterations; the loop variable keeps its last value and
# assigning it in the body does not change the iteration.
n: int
m: int
total = 0
for i in range(min(n, 6)):
    total += i
    i = 100
count = 0
for j in range(max(m, -4), min(n, 4)):
    count += 1
down = 0
for k in range(min(n, 7), max(m, -3), -2):
    down = down * 10 + k
last = 0
for q in range(3):
    last = q
r = total * 1000 + count * 100 + down + last
