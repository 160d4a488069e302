# Chained comparisons: `a < b <= c` means `a < b and b <= c`, each operand evaluated once.
a: int
b: int
c: int
t: tuple

ascending = a < b < c
weak = a <= b <= c
all_equal = a == b == c
not_chain = a != b != c
peak = a < b > c
valid_index = 0 <= a < len(t)
longer = len(t) > a >= -len(t) < b
mixed = a < b == c
eq_tuple = t == (a, b) == (a, b)
value = 0
if -len(t) <= b < len(t) and t[b] != a:
    value = t[b]
