# A backwards search (issue 31): the fold's quantifier reads t[len(t) - τ1 - 1], a
# descending index; the exit with i == 0 was `unknown` (timeout) on Z3 4.8.12 until such
# reads were renamed to ascending ones for the position translation.
def f(t: tuple, x: int) -> int:
    i = len(t)
    while i > 0:
        i -= 1
        if t[i] == x:
            break
    else:
        return -1
    return 10 // i
