n: int
i = 0
while i < 2:
    i += 1
    if i > 2:
        print(n)
        break
else:
    print(i)
print(abs(n) >= 0 or n == 7)
