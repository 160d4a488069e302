# Contracts: `requires` / `ensures` lines at the top of a `def` body (symdbg's
# annotations, like `invariant`). `symdbg check examples/contracts.py --contracts`
# proves each one for every input and every recursion depth; `symdbg run
# examples/contracts.py --entry area --calls contract` uses them at the calls.
def power(b: int, e: int) -> int:
    requires e >= 0
    requires b >= 1
    ensures result >= 1
    if e == 0:
        return 1
    return b * power(b, e - 1)


def gcd(a: int, b: int) -> int:
    requires a >= 0 and b >= 0
    ensures result >= 0
    ensures a == 0 and b == 0 or result > 0
    if b == 0:
        return a
    return gcd(b, a % b)


def area(w: int, h: int) -> int:
    g = gcd(w, h)
    assert g >= 0
    return power(w, 2) // power(h, 1) if w >= 1 and h >= 1 else 0
