# A function reads an input declared below the call.
def f(a: int) -> int:
    return a + x


r = f(1)
x: int
s = f(2)
