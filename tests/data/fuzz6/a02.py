# entry: first_even
def first_even(t: tuple) -> int:
    for i in range(len(t)):
        if t[i] % 2 == 0:
            return i
    return -1
