# divide.py: a division by zero inside a call, for one value of x (protocol tests of
# `symdbg dap`: exception stops, exceptionInfo's model).
x: int
y: int


def ratio(a: int, b: int) -> int:
    return a // b


q = ratio(y, x - 3)
