# Loops written for the fold tests (issue 15), beyond the design's examples.
def countdown2(x: int) -> int:
    n = 0
    while x != 0:
        x -= 2
        n += 1
    return n

def last_neg(t: tuple) -> int:
    i = len(t) - 1
    while i >= 0:
        if t[i] < 0:
            return i
        i -= 1
    return -1

def no_seven(t: tuple) -> int:
    i = 0
    while i < len(t):
        assert t[i] != 2
        i += 1
    return i

def divs(t: tuple) -> int:
    i = 0
    q = 0
    while i < len(t):
        q = 6 // t[i]
        i += 1
    return q

def two_counters(n: int) -> int:
    i = 0
    j = 10
    last = 0
    while i < n:
        i += 1
        j -= 2
        last = i + j
    return last * 100 + j

def from_start(t: tuple, s: int) -> int:
    i = s
    while i < len(t) and t[i] > 0:
        i += 1
    return i

def with_else(n: int, k: int) -> int:
    i = 0
    r = 0
    while i < n:
        if i == k:
            break
        i += 1
    else:
        r = 1
    return r * 10 + i

def stepped(n: int, s: int) -> int:
    k = 0
    y = 0
    while k < n:
        k += 1
        y += s
    return y

def flag(t: tuple) -> bool:
    i = 0
    seen = False
    while i < len(t):
        seen = t[i] == 1
        i += 1
    return seen

def sym_step(n: int, s: int) -> int:
    i = 0
    k = 0
    while i < n:
        i += s
        k += 1
    return k * 10 + i
