# window_sum.py: a three-element window over a tuple, with the classic negative-index bug.
#
# Shows: Python's negative indices hiding an off-by-one. `t[i - 1]` for i = 0 is `t[-1]`,
#   the LAST element: no exception, just a wrong sum, which a test with "normal" inputs
#   never notices. At the other border `t[i + 1]` raises IndexError. In the tree the
#   path conditions name the cases exactly: `i - 1 < 0 and i - 1 >= -len(t)` (silent
#   wrap-around), `i + 1 >= len(t)` (IndexError), and the fine middle.
#   The `assert` states the caller's intent (a window strictly inside t), so the debugger
#   reports the silent case as a red leaf with a concrete input such as t=(1, 2), i=0.
# Run:
#   symdbg exec examples/window_sum.py --input "t=(1, 2, 3)" --input i=1      (s = 6)
#   symdbg exec examples/window_sum.py --input "t=(1, 2, 3)" --input i=0      (AssertionError)
#   symdbg exec examples/window_sum.py --input "t=(1, 2, 3)" --input i=2      (IndexError)
#   symdbg run examples/window_sum.py --counterexamples
# Interesting inputs: i=0 (wraps to the last element), i=len(t)-1 (IndexError),
#   i=-1 with len(t) >= 2 (t[-2] + t[-1] + t[0]: all three exist!), t=() (IndexError).

t: tuple
i: int


def window_sum(t: tuple, i: int) -> int:
    return t[i - 1] + t[i] + t[i + 1]


s = window_sum(t, i)
assert 0 < i < len(t) - 1
