# entry: outer
# Assigning to a parameter only changes the callee's copy.
def bump(k: int) -> int:
    k = k + 10
    k *= 2
    return k

def outer(k: int, t: tuple) -> int:
    a = bump(k)
    t = t + (k,)
    b = bump(len(t))
    return a + b + k + len(t)
