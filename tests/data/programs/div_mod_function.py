# entry: divmod_sum
# Floor division and modulo inside a function; ZeroDivisionError propagates out of it.
def divmod_sum(a: int, b: int) -> int:
    q = a // b
    r = a % b
    if r < 0:
        return q - r
    return q + r
