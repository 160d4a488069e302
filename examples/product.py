# product.py: the loops chapter's product of a tuple, with its loop invariant (chapter
# "Loops in Static Symbolic Execution").
#
# Shows: `invariant` lines. Instead of unrolling the loop, symdbg can abstract it by its
#   invariant: check it before the loop, forget (havoc) i, elem and result, assume the
#   invariant, run one arbitrary iteration and check the invariant again; the loop's
#   "use case" continues after the loop with only what the invariant says.
#   The book's invariant is `i >= 0 and i <= len(t) and result % elem == 0`; with Python's
#   semantics `result % elem` raises ZeroDivisionError when a tuple element is 0, so the
#   second invariant guards it with `elem == 0 or ...` (short-circuit).
#   Replace `result * elem` by `result + elem` to see the book's faulty mutant: the
#   invariant check after the iteration becomes a red AssertionError leaf.
# Run:
#   symdbg exec examples/product.py --input "t=(2, 3, 4)"      (p = 24)
#   symdbg exec examples/product.py --input "t=()"             (p = 1)
#   symdbg run examples/product.py --tree                      (invariant transition)
# Interesting inputs: t=(), t=(0, 5), t=(-2, 3), t=(2, 3, 4).

t: tuple


def product(t: tuple) -> int:
    i = 0
    result = 1
    elem = 1
    while i < len(t):
        invariant 0 <= i <= len(t)
        invariant elem == 0 or result % elem == 0
        elem = t[i]
        result = result * elem
        i = i + 1

    return result


p = product(t)
