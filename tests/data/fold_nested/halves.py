# entry: f
# The inner loop's bound is an input and its counter starts at the outer's value read
# before the outer loop changes it; the outer loop leaves by a break on a tuple element.
def f(t: tuple, x: int) -> int:
    s = 0
    i = 0
    k = x
    while i < len(t):
        if t[i] == 2:
            break
        j = k
        while j <= 2:
            s += 2
            j += 1
        s -= 1
        i += 1
    return s * 10 + i
