# if_program.py: the correctness chapter's test program for `if` statements (chapter
# "Correctness of Symbolic Transitions"): a guard and two assignments that can each raise a
# different exception.
#
# Shows: one small statement with many leaves. The guard can raise IndexError (`t[a]` with
#   a out of range, negative indices count from the end), `and` short-circuits so `g` is
#   only read when `a >= t[a]`, and both branches can raise ZeroDivisionError (`a // c`,
#   `c // b`). `symdbg check` tests exhaustiveness and precision on it, like the book does.
# Run:
#   symdbg exec examples/if_program.py --input a=0 --input b=1 --input c=2 --input g=True --input "t=(0,)"
#   symdbg run examples/if_program.py --counterexamples
#   symdbg check examples/if_program.py --runs 200
# Interesting inputs (b=1, c=2 unless said):
#   a=0, t=(0,), g=True           -> then branch, x = 0 // 2 = 0
#   a=0, t=(0,), g=True, c=0      -> ZeroDivisionError in the then branch
#   a=-1, t=(5, -3), g=False      -> t[-1] == -3, guard true but g false: x = 2 // 1
#   a=3, t=(1, 2)                 -> IndexError in the guard
#   a=0, t=(1,), b=0              -> else branch, ZeroDivisionError

a: int
b: int
c: int
g: bool
t: tuple

if a >= t[a] and g:
    x = a // c
else:
    x = c // b
