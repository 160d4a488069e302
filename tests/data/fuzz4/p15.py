x: int
i = 0
while i < 3:
    i += 1
    if x == i:
        break
else:
    x = 0
r = x * i
print(r)
