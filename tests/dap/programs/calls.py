# calls.py: a call, a fork inside it and a tuple (protocol tests of `symdbg dap`).
x: int
y: int


def bigger(a: int, b: int) -> int:
    if a > b:
        return a
    return b


m = bigger(x, y)
pair = (m, m - y, 7)
assert m >= x
