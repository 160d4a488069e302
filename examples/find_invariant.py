# find_invariant.py: the linear search of find.py with the book's loop invariant, so the
# loop is analysed once for all lengths of haystack instead of being unrolled (chapter
# "Loops in Static Symbolic Execution", last section).
#
# Shows: `invariant` lines with a `@predicate`, a loop with `break` and `else:` under the
#   invariant transformation (break leaves the loop scope, the else branch returns -1).
#   The invariant: "i stays within 0 and the size of haystack (inclusively), and needle is
#   not at any index before i". Change `i = i + 1` to the book's typo `i = i + i` and the
#   tree gets a red AssertionError leaf: after an arbitrary iteration the invariant no
#   longer holds (from i = 3 with len(haystack) = 4, i jumps to 6 > len(haystack); from
#   i = 2 it jumps to 4 past the unchecked index 3). Concretely that typo makes the loop spin forever at i = 0,
#   which no bounded unrolling would report as an error.
# Run:
#   symdbg exec examples/find_invariant.py --input needle=3 --input "haystack=(1, 2, 3)"
#   symdbg run examples/find_invariant.py --tree
# Interesting inputs: needle=3, haystack=(1, 2, 3) -> 2; needle=0, haystack=() -> -1.

needle: int
haystack: tuple


@predicate
def not_found_before(i: int, needle: int, haystack: tuple) -> bool:
    return all(haystack[k] != needle for k in range(0, i))


def find(needle: int, haystack: tuple) -> int:
    i = 0
    while i < len(haystack):
        invariant 0 <= i <= len(haystack)
        invariant not_found_before(i, needle, haystack)
        if haystack[i] == needle:
            break

        i = i + 1
    else:
        return -1

    return i


result = find(needle, haystack)
