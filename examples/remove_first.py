# remove_first.py: `in`, slices and conditional expressions, the way Python is written.
#
# Shows: the expressions of issue 25 in the tree. `x not in t` is one branch whose
#   condition prints as written (`x not in t`); `t[:i] + t[i + 1:]` keeps its slices in
#   the store; `u[-1] if len(u) > 0 else -1` is one value, and its unchosen side never
#   raises (`u[-1]` on an empty `u` would be an IndexError). The search loop cannot run
#   past the end: the path condition already says `x in t`. The `assert` claims that the
#   result no longer holds x, which is wrong when x occurs twice: a red leaf with a model
#   such as t=(0, 0), x=0.
# Run:
#   symdbg exec examples/remove_first.py --input "t=(3, 1, 2)" --input x=1   (u = (3, 2))
#   symdbg exec examples/remove_first.py --input "t=(1, 1)" --input x=1      (AssertionError)
#   symdbg run examples/remove_first.py --counterexamples
# Interesting inputs: t=() (nothing to remove, last = -1), x absent, x twice.

t: tuple
x: int


def remove_first(t: tuple, x: int) -> tuple:
    if x not in t:
        return t
    i = 0
    while t[i] != x:
        i += 1
    return t[:i] + t[i + 1:]


u = remove_first(t, x)
last = u[-1] if len(u) > 0 else -1
backwards = u[::-1]
assert x not in u
