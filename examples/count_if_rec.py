# A recursive countIf with two recursive calls (seed 004's Figure 4). With `--fold auto`
# the two call paths are folded into one node with two parameters, κ1 calls on a match
# and λ1 calls past a non-match in any order, whatever `--recursion` says:
#   symdbg run examples/count_if_rec.py --entry count_if --fold auto
#   symdbg run examples/count_if_rec.py --templates
def count_if_rec(a: tuple, x: int, i: int) -> int:
    if i >= len(a):
        return 0
    if a[i] == x:
        return 1 + count_if_rec(a, x, i + 1)
    return count_if_rec(a, x, i + 1)


def count_if(a: tuple, x: int) -> int:
    return count_if_rec(a, x, 0)
