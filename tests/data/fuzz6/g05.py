x: int
while True:
    x += 1
    if x > 3:
        break
else:
    print(x)
print(x)
