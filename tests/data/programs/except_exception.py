# `except Exception` catches every exception a minipy program raises.
x: int
t: tuple

def down(n: int) -> int:
    return down(n - 1) + 1

caught = 0
try:
    a = 10 // x
except Exception:
    caught = caught + 1
try:
    b = t[x]
except Exception:
    caught = caught + 10
try:
    assert x > 2
except Exception:
    caught = caught + 100
try:
    if x == 4:
        c = down(x)
except Exception:
    caught = caught + 1000
