# AssertionError is caught by its own class, by Exception and by a bare except, and not by
# ArithmeticError.
x: int
b: bool

log = 0
try:
    assert x > 0
    log = 1
except AssertionError:
    log = 2
try:
    assert b
except Exception:
    log = log + 10
try:
    assert x != 1 and not b
except:
    log = log + 100
try:
    assert x < 3
except ArithmeticError:
    log = -1
