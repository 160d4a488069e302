# A callee's locals are its own: its `i` and `total` never change the caller's.
n: int
t: tuple

def count_up(n: int) -> int:
    i = 0
    total = 0
    while i < n:
        i = i + 1
        total = total + i
    return total

def sum_twice(t: tuple) -> int:
    i = 0
    total = 0
    while i < len(t):
        total = total + count_up(min(abs(t[i]), 5))
        i = i + 1
    return total + i

i = 100
total = -1
m = count_up(min(n, 6))
s = sum_twice(t)
i_after = i
total_after = total
