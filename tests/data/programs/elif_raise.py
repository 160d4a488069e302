# entry: classify
# elif guards that can raise: later guards only run if earlier ones were False.
def classify(t: tuple, i: int) -> int:
    if len(t) == 0:
        return 0
    elif t[0] == i:
        return 1
    elif t[i] > 0:
        return 2
    elif 10 // t[i] > 1:
        return 3
    else:
        return 4
