# entry: all_pos
# A Boolean result returned unchanged; an assert on the call path.
def all_pos_rec(t: tuple, i: int) -> bool:
    if i >= len(t):
        return True
    assert t[i] != -1
    if t[i] <= 0:
        return False
    return all_pos_rec(t, i + 1)


def all_pos(t: tuple) -> bool:
    return all_pos_rec(t, 0)
