# Invariants of `for` loops (tests/it/for_loops.rs): in a range loop the loop variable
# names the position (the value of the next iteration, one step past the last after the
# loop); in `for x in t`, `x_index` is the index of the next element.
def find(t: tuple, v: int) -> int:
    for i in range(len(t)):
        invariant 0 <= i and i <= len(t)
        invariant all(t[j] != v for j in range(i))
        if t[i] == v:
            return i
    return -1

def count(t: tuple, v: int) -> int:
    n = 0
    for x in t:
        invariant 0 <= n and n <= x_index
        if x > v:
            n += 1
    return n

def sum_down(n: int) -> int:
    s = 0
    for i in range(n, 0, -1):
        invariant s >= 0
        invariant i <= n
        s += i
    return s

def stride_sum(t: tuple) -> int:
    s = 0
    for i in range(0, len(t), 2):
        invariant i >= 0
        invariant i % 2 == 0
        s += t[i]
    return s

def not_initially(n: int) -> int:
    s = 0
    for i in range(1, n):
        invariant i == 0
        s += i
    return s

def not_preserved(t: tuple) -> int:
    c = 0
    for x in t:
        invariant x_index == 0
        c += 1
    return c
