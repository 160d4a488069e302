# filter_nonnegative.py: the loops chapter's filter, with the invariant the book states in
# words, written as minipy (chapter "Loops in Static Symbolic Execution").
#
# Shows: a `@predicate` with nested bounded quantifiers, used as a loop invariant:
#   1. i stays between 0 and len(t);
#   2. result is no longer than i;
#   3. every non-negative element of t before index i occurs in result.
#   Predicates are evaluated as formulas (never stepped into); `all(... for k in range(a, b))`
#   and `any(...)` are bounded quantifiers. Concretely (`exec`) they are evaluated like
#   Python would, and every invariant is checked before each evaluation of the loop guard.
#   To see invariant 3 fail, append `(t[i] + 1,)` instead of `(t[i],)`: the tree gets a
#   red AssertionError leaf with a concrete tuple that reproduces it.
# Run:
#   symdbg exec examples/filter_nonnegative.py --input "t=(3, 17, -4, 0, 5, -321)"
#       (r = (3, 17, 0, 5), the book's example)
#   symdbg run examples/filter_nonnegative.py --tree
# Interesting inputs: t=(), t=(-1, -2), t=(3, 17, -4, 0, 5, -321).

t: tuple


@predicate
def nonnegatives_kept(t: tuple, i: int, result: tuple) -> bool:
    return all(t[k] < 0 or any(result[m] == t[k] for m in range(len(result)))
               for k in range(0, i))


def filter_nonnegative(t: tuple) -> tuple:
    i = 0
    result = tuple()

    while i < len(t):
        invariant 0 <= i <= len(t)
        invariant len(result) <= i
        invariant nonnegatives_kept(t, i, result)
        if t[i] >= 0:
            result = result + (t[i],)

        i = i + 1

    return result


r = filter_nonnegative(t)
