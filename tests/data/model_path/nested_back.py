# Nested loops, both descending (the longest run of positives, backwards).
def f(t: tuple) -> int:
    best = 0
    for i in range(len(t) - 1, -1, -1):
        n = 0
        j = i
        while j >= 0 and t[j] > 0:
            n += 1
            j -= 1
        if n > best:
            best = n
    return best
