t: tuple
i = len(t)
r = 0
while i > 0:
    i -= 1
    if t[i] == 0:
        continue
    r = r * 10 + t[i]
    if r > 50:
        break
print(r, i)
