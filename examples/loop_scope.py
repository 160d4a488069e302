# loop_scope.py: the loops chapter's loop-scope example (chapter "Loops in Static Symbolic
# Execution", section "Loop Scopes"), inside a function so that its `return` is legal.
#
# Shows: the book's `loop-scope(inv=e):` statement, which is what a `while` with an
#   invariant is turned into. Its body runs once:
#   - `break`    -> the loop scope completes normally (the loop was left);
#   - `continue` -> one iteration is over: if the invariant holds, the whole run ends with
#                   outcome `halt` (the invariant is preserved, nothing more to check on
#                   this path); if it does not, AssertionError;
#   - `return` and exceptions go through it as usual.
#   The original loop is
#       while i < len(t):
#           if i == 17: break
#           if i == 42: return i + 1
#           i = i + 1
# Run:
#   symdbg exec examples/loop_scope.py --input i=0 --input "t=(1, 2)"     (halt)
#   symdbg exec examples/loop_scope.py --input i=5 --input "t=(1, 2)"     (break: r = 5)
#   symdbg exec examples/loop_scope.py --input i=-3 --input "t=(1, 2)"    (AssertionError)
#   symdbg run examples/loop_scope.py --tree
# Interesting inputs: i=-1 (i becomes 0: invariant holds, halt), i=-3 (i becomes -2:
#   invariant broken), i=len(t) (else branch: break), i=17 with len(t) > 17 (break),
#   i=42 with len(t) > 42 (return 43).

t: tuple
i: int


def scan(i: int, t: tuple) -> int:
    loop-scope(inv=i >= 0 and i <= len(t)):
        if i < len(t):
            if i == 17:
                break
            if i == 42:
                return i + 1

            i = i + 1
            continue
        else:
            break

    return i


r = scan(i, t)
