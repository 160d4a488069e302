t: tuple
n: int
s = 0
for i in range(n):
    try:
        s += t[i]
        if s > 5:
            break
    except IndexError:
        s -= 1
        continue
    s += 1
else:
    s = -s
print(s, i)
