x: int
y: int
z = 0
if 0 <= x < y <= 5:
    z = 1
elif x == y == 3 or not x != -y:
    z = 2
assert z != 2 or x + y == 0 or x == 3
print(z)
