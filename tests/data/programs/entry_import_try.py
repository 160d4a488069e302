# entry: scale
# The top level catches its own ZeroDivisionError and falls back; a top-level call of the
# entry function itself (with a constant) runs during the import, reading `factor` as it
# is at that moment.
factor = 0
try:
    factor = 12 // factor
except ArithmeticError:
    factor = -3

def scale(t: tuple, i: int) -> int:
    return t[i] * factor + first

first = 0
first = scale((5, 6), 1)
if first < 0:
    factor = factor - 1
