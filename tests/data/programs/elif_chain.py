# if/elif/else chains: exactly one branch runs, the first whose guard holds.
x: int
y: int

if x < -3:
    kind = 1
elif x < 0:
    kind = 2
elif x == 0:
    kind = 3
elif x <= y:
    kind = 4
elif x > 100:
    kind = 5
else:
    kind = 6
sign = 0
if y > 0:
    sign = 1
elif y < 0:
    sign = -1
if x == y:
    rel = 0
elif x < y:
    rel = -1
else:
    rel = 1
