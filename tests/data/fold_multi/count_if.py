# entry: count_if
# The paper's Figure 2 (countIf): two cyclic paths, one two-parameter template.
def count_if(a: tuple, x: int) -> int:
    i = 0
    k = 0
    while i < len(a):
        if a[i] == x:
            k = k + 1
        i = i + 1
    return k * 100 + i
