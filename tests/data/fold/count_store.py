# countIf at module level (issue 27): below the two-parameter fold the store pane shows
# s with its like terms collected (the fold's substitution leaves k * 100 + i as a sum of
# two sums).
a: tuple
x: int
i = 0
k = 0
while i < len(a):
    if a[i] == x:
        k = k + 1
    i = i + 1
s = k * 100 + i
d = 10 - 2 * k
