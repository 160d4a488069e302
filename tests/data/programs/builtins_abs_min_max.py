# abs, min, max on ints, nested, with large values.
x: int
y: int

a = abs(x)
b = abs(-y)
c = min(x, y)
d = max(x, y)
e = max(min(x, 3), -3)
f = abs(min(x, y)) + abs(max(x, y))
g = min(abs(x), abs(y))
h = max(x * 100000000000000000000, y)
same = min(x, y) + max(x, y) == x + y
