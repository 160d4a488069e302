# The last positive element, by a reflected index in a for loop.
def f(t: tuple) -> int:
    for k in range(len(t)):
        if t[-1 - k] > 0:
            return len(t) - 1 - k
    return -1
