# Unbounded ints: products, floor division and modulo far beyond 64 bits.
x: int
y: int

big = 100000000000000000000
a = x * big
b = a * a + y
c = b // big
d = b % big
e = -b // (big + 1)
f = (-b) % (big - 1)
h = abs(a - b) // 3
i = max(a, b) - min(a, b)
j = 18446744073709551616 * x - 9223372036854775808
k = j % 4294967296
