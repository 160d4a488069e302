n: int
i = 0
s = 0
while i < n:
    s = s + 2
    if i < 0:
        s = 99
    i = i + 1
print(s)
