# entry: depth
# The module computes a table with a recursive function and a loop with break; the entry
# function reads it and divides by an entry of it.
def fact(n: int) -> int:
    if n <= 1:
        return 1
    return n * fact(n - 1)

table = ()
j = 0
while True:
    if j == 5:
        break
    table = table + (fact(j) - 2,)
    j += 1

def depth(i: int, d: int) -> int:
    if d > 3:
        d = 3
    return table[i] // table[d]
