# A search from a symbolic start index (negative indices possible): the "found" exit with
# κ >= 3 was `unknown` (timeout) on Z3 4.8.12 until quantifiers were split at index 0.
def f(t: tuple, s: int, x: int) -> int:
    i = s
    while i < len(t):
        if t[i] == x:
            assert i < s + 3
            return i
        i += 1
    return -1
