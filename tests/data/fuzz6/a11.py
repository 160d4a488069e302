# entry: pairs
def pairs(t: tuple) -> int:
    n = 0
    for i in range(len(t)):
        for j in range(i + 1, len(t)):
            if t[i] + t[j] == 0:
                n += 1
    return n
