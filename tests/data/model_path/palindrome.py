# Two indices moving towards each other.
def f(t: tuple) -> bool:
    i = 0
    j = len(t) - 1
    while i < j:
        if t[i] != t[j]:
            return False
        i += 1
        j -= 1
    return True
