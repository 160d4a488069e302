# `for x in t` with break, continue and else; the tuple is evaluated once (rebinding it in
# the body changes nothing); nested loops and their own else clauses.
t: tuple
v: int
found = -1
seen = 0
for x in t:
    t = t + (x,)
    if x == v:
        found = seen
        break
    if x < 0:
        continue
    seen += 1
else:
    found = -2
pairs = 0
for a in (1, 2, 3):
    for b in range(a):
        if b == v:
            break
        pairs += 1
    else:
        pairs += 10
