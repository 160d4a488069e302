n: int
i = 0
while i < n:
    if i == 2:
        break
    i += 1
else:
    i = -i
print(i)
