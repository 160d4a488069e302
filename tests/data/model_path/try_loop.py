# A division inside try/except in a loop.
def f(t: tuple) -> int:
    total = 0
    for v in t:
        try:
            total += 100 // v
        except ZeroDivisionError:
            total -= 1
    return total
