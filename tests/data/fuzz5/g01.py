x: int
y = x * x
if y < 0:
    print(-1)
elif x > 5 and x < 3:
    print(-2)
else:
    print(y % 4)
