# entry: first_negative_pair
# return from inside nested loops ends the function at once.
def first_negative_pair(t: tuple, limit: int) -> int:
    i = 0
    while i < len(t):
        j = i + 1
        while j < len(t):
            if t[i] + t[j] < limit:
                return i * 10 + j
            j += 1
        i += 1
    return -1
