# Nested and/or/not with bools, where only the operands that run may raise.
a: bool
b: bool
x: int
t: tuple

r1 = a and b or not a and not b
r2 = not (a or b) or (x != 0 and 10 // x > 2)
r3 = (a or x == 0) and (b or 1 // x == 0)
r4 = not a or not b or t[x] == 0
r5 = a and (b and (t[0] > 0 or t[-1] < 0))
