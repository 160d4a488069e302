x: int
y: int
print(-x // y, not x == y, -x % -y, x - -y, - - x)
