# Recursion without a reachable base case ends in RecursionError, which is a RuntimeError
# and an Exception.
x: int

def countdown(k: int) -> int:
    if k == 0:
        return 0
    return 1 + countdown(k - 1)

def forever(k: int) -> int:
    return forever(k + 1) - 1

depth = 0
try:
    depth = countdown(x)
except RecursionError:
    depth = -1
kind = 0
try:
    kind = forever(x)
except RuntimeError:
    kind = 1
try:
    kind = kind + forever(x)
except Exception:
    kind = kind + 10
last = countdown(x - 3)
