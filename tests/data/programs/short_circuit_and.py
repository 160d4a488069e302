# `and` only evaluates its right operand when the left one is True: no IndexError or
# ZeroDivisionError unless that operand runs.
t: tuple
i: int
x: int
y: int

safe = i >= 0 and i < len(t) and t[i] > 0
nonzero_div = y != 0 and x // y > 1
both = x > 0 and y > 0
unsafe = t[i] > 0 and i < len(t)
