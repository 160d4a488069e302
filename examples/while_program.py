# while_program.py: the correctness chapter's test program for `while` statements (chapter
# "Correctness of Symbolic Transitions"): an unbounded loop whose guard depends on inputs.
#
# Shows: loop unrolling. The number of iterations is idx - x + 1 when idx >= x, so any
#   unrolling bound cuts some paths off: symdbg keeps them as visible `bound` leaves (the
#   book's prototype silently dropped them, which its exhaustiveness check then caught
#   with the counterexample idx = 44, x = -29).
# Run:
#   symdbg exec examples/while_program.py --input x=0 --input idx=2     (idx = -1)
#   symdbg run examples/while_program.py --unroll 2 --tree
#   symdbg check examples/while_program.py --unroll 2
# Interesting inputs: idx < x (no iteration), idx = x (one), idx = 44, x = -29 (74).

x: int
idx: int

while idx >= x:
    idx = idx - 1
