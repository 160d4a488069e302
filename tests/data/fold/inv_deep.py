# A loop with invariant lines, one of them wrong from the 51st iteration on: under
# --loops unroll it folds like any loop, and the broken invariant is an exit of the fold.
def count_up(t: tuple) -> int:
    i = 0
    while i < len(t):
        invariant 0 <= i <= len(t)
        invariant i <= 50
        i += 1
    return i
