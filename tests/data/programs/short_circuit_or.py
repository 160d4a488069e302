# `or` only evaluates its right operand when the left one is False.
x: int
y: int
t: tuple

divides = y == 0 or x % y == 0
empty_or_first = len(t) == 0 or t[0] > x
either = x < 0 or y < 0
risky = x > 100 or t[x] == y
