# A user function called in a loop.
def g(a: int, b: int) -> int:
    if a > b:
        return a - b
    return b - a

def f(t: tuple) -> int:
    s = 0
    for i in range(len(t) - 1):
        s += g(t[i], t[i + 1])
    return 10 // (s - 5)
