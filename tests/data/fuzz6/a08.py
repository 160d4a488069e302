# entry: rev
def rev(t: tuple) -> tuple:
    r = ()
    for x in t:
        r = (x,) + r
    return r
