x: int
t: tuple
i = 0
while i < len(t):
    if t[i] == x:
        break
    i += 1
else:
    i = -1
print(i)
