# safe_ratio.py: integer percentages with Python's flooring division, a division by zero
# that is handled, and one that is not.
#
# Shows: `try`/`except ArithmeticError` catching ZeroDivisionError (a subclass) inside a
#   callee, so the caller sees a normal return; Python's floor division rounding towards
#   minus infinity (percent(-1, 3) is -34, not -33) and `%` taking the sign of the divisor
#   (-1 % 3 == 2, 1 % -3 == -2); and an unprotected `%` after the call, whose
#   ZeroDivisionError is the one red leaf of the tree.
# Run:
#   symdbg exec examples/safe_ratio.py --input part=1 --input whole=3     (p = 33, rest = 1)
#   symdbg exec examples/safe_ratio.py --input part=-1 --input whole=3    (p = -34, rest = 2)
#   symdbg exec examples/safe_ratio.py --input part=5 --input whole=0     (ZeroDivisionError)
#   symdbg run examples/safe_ratio.py --counterexamples
# Interesting inputs: whole=0 (caught in ratio, uncaught in `%`), negative part or whole.

part: int
whole: int


def ratio(a: int, b: int) -> int:
    try:
        return a // b
    except ArithmeticError:
        return 0


def percent(part: int, whole: int) -> int:
    return ratio(100 * part, whole)


p = percent(part, whole)
rest = part % whole
