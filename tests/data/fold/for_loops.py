# `for` loops whose `while` forms fold (tests/it/for_loops.rs): each `for` function next
# to its `while` twin.
def lin_srch_for(a: tuple, x: int) -> int:
    for i in range(len(a)):
        if a[i] == x:
            return i
    return -1

def lin_srch_while(a: tuple, x: int) -> int:
    i = 0
    while i < len(a):
        if a[i] == x:
            return i
        i = i + 1
    return -1

def all_pos_for(t: tuple, v: int) -> bool:
    for e in t:
        if e <= v:
            return False
    return True

def all_pos_while(t: tuple, v: int) -> bool:
    k = 0
    while k < len(t):
        e = t[k]
        k += 1
        if e <= v:
            return False
    return True

def down_for(t: tuple, v: int) -> int:
    for i in range(len(t) - 1, -1, -1):
        if t[i] == v:
            return i
    return -1

def down_while(t: tuple, v: int) -> int:
    i = len(t) - 1
    while i > -1:
        if t[i] == v:
            return i
        i -= 1
    return -1

def stride_for(t: tuple, s: int) -> int:
    last = -1
    for i in range(0, len(t), 2):
        if t[i] < 0:
            break
        last = i
    else:
        return last + 100
    return last

def stride_while(t: tuple, s: int) -> int:
    last = -1
    i = 0
    while i < len(t):
        if t[i] < 0:
            break
        last = i
        i += 2
    else:
        return last + 100
    return last
