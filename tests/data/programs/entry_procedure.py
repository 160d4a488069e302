# entry: validate
# An entry procedure (no return type): it returns None, or raises.
def validate(t: tuple, k: int):
    i = 0
    while i < len(t):
        assert t[i] != k
        i += 1
    if len(t) > 3:
        return
    assert k >= -5
