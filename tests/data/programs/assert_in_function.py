# entry: checked_div
# assert inside a function; the AssertionError leaves the function.
def checked_div(a: int, b: int) -> int:
    assert b != 0
    q = a // b
    assert q * b + a % b == a
    assert abs(a % b) < abs(b)
    return q
