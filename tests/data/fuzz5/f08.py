n: int
i = 0
s = 0
while i < n:
    s += i
    i += 1
print(s, i)
