# entry: last_of
# A reset parameter (R2): `last` takes the element just passed.
def last_rec(t: tuple, i: int, last: int) -> int:
    if i >= len(t):
        return last
    return last_rec(t, i + 1, t[i])


def last_of(t: tuple) -> int:
    return last_rec(t, 0, -7)
