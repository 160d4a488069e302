# Unary minus, plus and not, and how unary minus binds with // and %.
x: int
y: int
b: bool

a = -x
c = - -x
d = +x
e = -x // 2
f = -(x // 2)
g = -x % 3
h = -(x % 3)
i = not b
j = not not b
k = not x > y
m = -abs(x) - -y
n = 0
try:
    n = -x // -y
except ZeroDivisionError:
    n = 1
