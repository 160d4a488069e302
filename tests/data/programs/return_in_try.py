# entry: safe_index
# return inside try and inside handlers.
def safe_index(t: tuple, i: int, d: int) -> int:
    try:
        v = t[i]
        return v // d
    except IndexError:
        if len(t) == 0:
            return -100
        return t[-1]
    except ZeroDivisionError:
        return -200
