# entry: f
# A function local read inside an all()/any() body before it is assigned is a free variable
# of the generator expression: NameError. The range is evaluated in the function itself:
# UnboundLocalError there, as for a plain read.
def f(a: int) -> bool:
    if a > 100:
        v = False
        u = 2
    if a < -5:
        return any(a == k for k in range(u))
    return all(v for k in range(1))
