# entry.py: a function analysed on its own with the launch argument `entry` (protocol
# tests of `symdbg dap`).


def sign(v: int) -> int:
    if v < 0:
        return -1
    if v == 0:
        return 0
    return 1
