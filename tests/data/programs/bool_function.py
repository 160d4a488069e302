# entry: decide
# A function with bool parameters and a bool result.
def decide(p: bool, q: bool, n: int) -> bool:
    if p and not q:
        return n > 0
    elif q:
        return not p or n == 0
    return p == q
