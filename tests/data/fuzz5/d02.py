# entry: f
def rev(t: tuple) -> tuple:
    if len(t) == 0:
        return ()
    return rev(t[1:]) + (t[0],)

def f(t: tuple) -> tuple:
    return rev(t)
