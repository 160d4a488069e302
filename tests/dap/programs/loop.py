# loop.py: a loop of four iterations whatever the input, then an assert that fails for one
# input (protocol tests of `symdbg dap`: conditions, hit counts, `unroll`).
n: int

s = 0
i = 0
while i < 4:
    s = s + n
    i = i + 1

assert s != 8
