# Every augmented assignment operator, on ints and on a tuple (+=).
x: int
y: int
t: tuple

a = x
a += y
a -= 3
a *= y
b = x
b += 100
b //= 7
c = x * 5
c %= 6
d = -x
d //= -4
e = y
e %= -3
u = t
u += (x,)
u += u
n = len(u)
z = 0
try:
    z = x
    z //= y
except ZeroDivisionError:
    z = -1
