# Python's rounding on literal operands (all sign combinations), mixed with an input.
x: int

a = 7 // 2
b = -7 // 2
c = 7 // -2
d = -7 // -2
e = 7 % 2
f = -7 % 2
g = 7 % -2
h = -7 % -2
i = 1 // -2
j = 1 % -2
k = 0 // -5
m = -1 % 5
n = (x * 3 + 1) // 2
p = (x * 3 + 1) % -2
q = -x % 3
r = x // -3
