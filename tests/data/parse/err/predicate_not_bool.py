@predicate
def P(a: int) -> int:
    return a + 1
