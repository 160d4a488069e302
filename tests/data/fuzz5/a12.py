x: int
for i in range(3):
    x = x * 2 - i
    if x == 5:
        print(i)
        break
else:
    print(-1)
print(x)
