# abs_double.py: the symbolic interpreter chapter's first example, `x = 2 * y` followed by
# a conditional negation (chapter "A Symbolic Interpreter").
#
# Shows: a symbolic store (x is `2 * y`, then `-(2 * y)` on one branch), a path condition
#   (`2 * y < 0`), and two leaves. The asserts state what holds on every path: x is the
#   absolute value of 2 * y, so it is non-negative and even; symbolic execution proves both
#   leaves free of errors.
# Run:
#   symdbg exec examples/abs_double.py --input y=-4    (x = 8)
#   symdbg run examples/abs_double.py --tree
# Interesting inputs: y=-4 (takes the `if`), y=3 (skips it), y=0.

y: int

x = 2 * y
if x < 0:
    x = -x

assert x >= 0
assert x % 2 == 0
