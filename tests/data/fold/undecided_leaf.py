# A fold leaf that is undecided (issue 31): after the folded search, `half`'s precondition
# `even(i)` unfolds the recursive predicate on κ, which never reaches its base case (an
# `unknown` leaf past the predicate depth limit, whatever the time limit); unrolled, i is
# a constant each time and the predicate decides. The fold falls back to unrolling and
# finds what unroll mode finds: the precondition broken (i odd) and the division by zero
# (i == 2).
@predicate
def even(n: int) -> bool:
    return n == 0 or (n >= 2 and even(n - 2))


def half(i: int) -> int:
    requires even(i)
    return i // 2


def f(t: tuple, x: int) -> int:
    i = 0
    while i < len(t) and t[i] != x:
        i += 1
    h = half(i)
    if h == 1:
        return 10 // (h - 1)
    return h
