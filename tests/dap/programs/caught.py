# caught.py: a division by zero that a handler catches (protocol tests of `symdbg dap`:
# the `caught` exception filter).
x: int

try:
    r = 10 // x
except ZeroDivisionError:
    r = 0
