# power.py: a recursive power function whose missing case only shows on negative exponents.
#
# Shows: recursion in the tree (one method frame per call, each with its own `exp`), the
#   `--recursion N` bound leaving visible `bound` leaves, and a RecursionError: for
#   exp < 0 the base case `exp == 0` is never reached, so the calls go on until the
#   interpreter's depth limit (1000 frames, like CPython) raises RecursionError.
# Run:
#   symdbg exec examples/power.py --input base=2 --input exp=10      (p = 1024)
#   symdbg exec examples/power.py --input base=2 --input exp=-1      (RecursionError)
#   symdbg run examples/power.py --recursion 4 --tree
# Interesting inputs: exp=0 (no recursion), exp=3, base=-2 (signs alternate), exp=-1.

base: int
exp: int


def power(base: int, exp: int) -> int:
    if exp == 0:
        return 1
    return base * power(base, exp - 1)


p = power(base, exp)
