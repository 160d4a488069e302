x: int
i = 0
while i < 3:
    i += 1
    try:
        if x == i:
            break
        x = x // (i - 2)
    except ZeroDivisionError:
        x = 100
        continue
    x += 1
print(x, i)
