# `in` / `not in` on tuples: empty tuples, slices, chains, inside conditions and loops.
x: int
t: tuple
found = x in t
missing = x not in ()
first = x in t[:1]
if x in (1, 2, 3):
    r = 1
elif x not in t:
    r = 2
else:
    r = 3
chain = 0 <= x in t
count = 0
i = 0
while i < 3:
    if i in t[1:]:
        count += 1
    i += 1
assert x not in t[5:] or len(t) > 5
