# while/else: the else branch runs when the guard becomes False, not after `break`.
t: tuple
x: int

i = 0
found = -1
while i < len(t):
    if t[i] == x:
        found = i
        break
    i = i + 1
else:
    found = -2
j = 5
while j > 10:
    j = j + 1
else:
    j = -j
