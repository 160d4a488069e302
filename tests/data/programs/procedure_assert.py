# Procedures (no return type) called as statements; one raises AssertionError.
x: int
t: tuple

def check_index(t: tuple, i: int):
    assert -len(t) <= i < len(t)

def check_nonzero(v: int) -> None:
    if v == 0:
        assert False
    return

ok = 0
try:
    check_index(t, x)
    ok = 1
except AssertionError:
    ok = -1
check_nonzero(x + 1)
ok = ok + 10
check_index(t, x)
ok = ok + 100
