t: tuple
n: int
s = 0
for i in range(len(t)):
    for j in range(i + 1, len(t)):
        if t[i] + t[j] == n:
            s += 1
print(s)
