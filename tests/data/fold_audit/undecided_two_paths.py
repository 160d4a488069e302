# A two-parameter fold whose leaf is undecided (issue 31 audit): after the folded count,
# `half`'s precondition `even(k)` unfolds the recursive predicate on κ1, past the predicate
# depth limit; unrolled, k is a constant each time and the predicate decides. The fallback
# unrolls κ1 + λ1 iterations (both paths), and the tree says so.
@predicate
def even(n: int) -> bool:
    return n == 0 or (n >= 2 and even(n - 2))


def half(k: int) -> int:
    requires even(k)
    return k // 2


def f(t: tuple, x: int) -> int:
    i = 0
    k = 0
    while i < len(t):
        if t[i] == x:
            k += 1
        i += 1
    h = half(k)
    return 10 // (h - 1)
