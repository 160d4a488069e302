# entry: sum_pos
def sum_pos(t: tuple) -> int:
    s = 0
    i = 0
    while i < len(t):
        if t[i] > 0:
            s = s + t[i]
        i = i + 1
    return s
