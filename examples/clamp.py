# clamp.py: two calls of a small function, and a sum that can reach its upper bound.
#
# Shows: call frames in the debugger. Each call of `clamp` enters a frame (`→ clamp` in the
#   tree) with three paths through it (below 0, above 10, in between), so two calls make
#   nine paths. In the debugger, `h` on a `→ clamp` row folds that call's frame: the call
#   then shows one row per way out, labelled with the conditions taken inside clamp, and
#   what follows each return stays visible. `z` folds every call frame, which leaves the
#   module's own statements: a summary of the program in terms of its inputs.
#   The assert fails when both clamped values are 10, i.e. x >= 10 and y >= 10.
# Run:
#   symdbg examples/clamp.py                                   (then r, z, e, m)
#   symdbg exec examples/clamp.py --input x=3 --input y=12     (a + b = 13)
#   symdbg exec examples/clamp.py --input x=10 --input y=11    (AssertionError)
#   symdbg run examples/clamp.py --counterexamples
# Interesting inputs: x=-5 (clamped to 0), x=10 (not clamped, but 10 already), y=10.

x: int
y: int


def clamp(v: int) -> int:
    if v < 0:
        v = 0
    if v > 10:
        v = 10
    return v


a = clamp(x)
b = clamp(y)
assert a + b < 20
