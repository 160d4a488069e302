# find.py: the book's linear search (chapters "Transparent Symbolic Execution of Function
# Calls" and "Loops in Static Symbolic Execution").
#
# Shows: a call into a user function (a method frame in the tree, with its own local `i`),
#   a `while` loop with `break` and an `else:` branch that only runs when the loop ends
#   without `break`, and a function with two `return`s.
# Run:
#   symdbg exec examples/find.py --input needle=3 --input "haystack=(1, 2, 3, 4)"
#   symdbg run examples/find.py --tree            (every path, loops unrolled 3 times)
#   (`--entry find` would import this module first, and its last line reads the input
#   `needle`, which an import leaves unbound: NameError, as in python3)
# Interesting inputs:
#   needle=3, haystack=(1, 2, 3, 4)  -> result = 2 (break in the third iteration)
#   needle=9, haystack=(1, 2, 3, 4)  -> result = -1 (the loop's else branch)
#   needle=0, haystack=()            -> result = -1 without entering the loop
#   needle=1, haystack=(1, 1)        -> result = 0 (the first match wins)

def find(needle: int, haystack: tuple) -> int:
    i = 0
    while i < len(haystack):
        if haystack[i] == needle:
            break

        i = i + 1
    else:
        return -1

    return i


needle: int
haystack: tuple

result = find(needle, haystack)
