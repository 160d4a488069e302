x: int
for i in range(3):
    try:
        if i == x:
            continue
        print(10 // (i - 1))
    except ZeroDivisionError:
        print(-i)
        break
else:
    print(99)
