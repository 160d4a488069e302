# entry: is_sorted
def is_sorted(t: tuple) -> bool:
    for i in range(1, len(t)):
        if t[i - 1] > t[i]:
            return False
    return True
