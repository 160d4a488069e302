# entry: f
def f(n: int) -> int:
    i = 0
    while i < n:
        i += 1
        try:
            if i == 2:
                break
        except Exception:
            pass
    else:
        return -i
    return i
