# entry: score_rec
# Two recursive call paths from a symbolic start (negative indices included) whose return
# phases add different constants: `r ↦ r + 2` and `r ↦ r - 1`.
def score_rec(t: tuple, i: int) -> int:
    if i >= len(t):
        return 0
    if t[i] > 0:
        return 2 + score_rec(t, i + 1)
    return score_rec(t, i + 1) - 1
