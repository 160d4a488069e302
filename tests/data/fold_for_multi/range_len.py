# entry: count_if
# The paper's countIf over `range(len(a))`; `i` after the loop (unbound for an empty a).
def count_if(a: tuple, x: int) -> int:
    k = 0
    for i in range(len(a)):
        if a[i] == x:
            k += 1
    return k * 100 + i
