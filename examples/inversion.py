# inversion.py: the correctness chapter's "invert negative numbers" program, with its
# off-by-one bug (chapter "Correctness of Symbolic Transitions").
#
# Shows: how a debugger finds the one input that breaks a postcondition. The program should
#   make x non-negative, but the guard says `x > 1` where it should say `x >= 0`
#   (or `x > -1`), so x = 1 takes the else branch and becomes -1. The final `assert` is
#   the postcondition x >= 0: symbolic execution reports its AssertionError leaf with the
#   path condition `x <= 1 and -x < 0`, i.e. exactly x = 1; random testing on [-100, 100]
#   hits that input with probability 1/201.
# Run:
#   symdbg exec examples/inversion.py --input x=1      (AssertionError)
#   symdbg exec examples/inversion.py --input x=-5     (x = 5)
#   symdbg run examples/inversion.py --counterexamples
# Interesting inputs: x=1 (the bug), x=0 (fine: -0 == 0), x=2, x=-3.

x: int

if x > 1:
    pass
else:
    x = -x

assert x >= 0
