# entry: pick
# Conditional expressions: only the chosen side runs, so its exception alone can happen.
def pick(x: int, t: tuple) -> int:
    a = 10 // x if x != 0 else -1
    b = t[0] if len(t) > 0 else 100 // x
    c = (t[x] if x >= 0 else t[-1]) if len(t) > 0 else 0
    d = x if x > 0 else -x if x < 0 else 7
    u = t if len(t) > 1 else t + (a,)
    ok = True if x in u else u[5] > 0
    return a + b + c + d + len(u) + (1 if ok else 0)
