# countdown.py: a loop that runs n times, n the input (protocol tests of `symdbg dap`:
# `unroll` bounds it).
n: int

i = 0
while i < n:
    i = i + 1
