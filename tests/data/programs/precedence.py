# Operator precedence: * // % over + -, comparisons over not, not over and over or.
a: int
b: int
c: int
p: bool

r1 = a + b * c
r2 = a - b - c
r3 = a * b // 3 % 5
r4 = a + b % 3 * c
r5 = (a + b) * c
r6 = a < b or b < c and p
r7 = not a == b
r8 = not p or p and a > 0
r9 = a - -b * -c
r10 = a * 2 + b // 4 - c % 3 * 2
