x: int
if x > 0:
    if x < 0:
        print(1)
    print(2)
