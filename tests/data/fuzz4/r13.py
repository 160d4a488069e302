t: tuple
i = 0
while True:
    if i >= len(t):
        break
    if t[i] < 0:
        i += 2
        continue
    i += 1
print(i)
