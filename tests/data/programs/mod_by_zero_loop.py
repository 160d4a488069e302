# %= and //= by divisors that reach zero inside a loop; the exception leaves the loop.
x: int
y: int

d = abs(y) % 4
acc = x
steps = 0
try:
    while steps < 6:
        acc %= d + 5
        acc //= d
        d -= 1
        steps += 1
except ZeroDivisionError:
    steps = -steps
