x: int
y: int
print(x // y, x % y, -x // y, x % -y)
