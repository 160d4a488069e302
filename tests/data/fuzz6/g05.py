x: int
while x > 3 and x < 2:
    x += 1
else:
    x = -x
if x > 0 and x < -5:
    print(x)
print(x)
