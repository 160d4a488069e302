# entry: f
def f(t: tuple) -> tuple:
    a = ()
    b = ()
    for v in t:
        if v % 2 == 0:
            a = a + (v,)
        else:
            b = (v,) + b
    return a + b
