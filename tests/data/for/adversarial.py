# `for` loops whose invariants hold but say nothing about how the program fails
# (tests/it/for_loops.rs): the invariant transition must still show every failure.
def past_end(t: tuple) -> int:
    s = 0
    for i in range(len(t) + 1):
        invariant 0 <= i
        s += t[i]
    return s

def unbound_after(n: int) -> int:
    for i in range(n):
        invariant i >= 0 or i < 0
        pass
    return i

def unbound_tuple(t: tuple) -> int:
    for x in t:
        invariant x_index >= 0
        pass
    return x

def element_div(t: tuple, d: int) -> int:
    s = 0
    for x in t:
        invariant s == s
        s += 10 // (x + d)
    return s

def step_zero(a: int, s: int) -> int:
    c = 0
    for i in range(a, 3, s):
        invariant c >= 0
        c += 1
    return c

def last_value(t: tuple) -> int:
    r = 0
    for i in range(len(t)):
        invariant i <= len(t)
        r = i
    assert r < 2
    return r

def break_else(t: tuple, v: int) -> int:
    for x in t:
        invariant x_index <= len(t)
        if x == v:
            break
    else:
        return 10 // v
    return x

def nested(t: tuple) -> int:
    s = 0
    for i in range(len(t)):
        invariant i >= 0
        for j in range(i, -1, -1):
            invariant j <= i
            s += 10 // (t[i] - j)
    return s
