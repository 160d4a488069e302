# entry: g
# A declared input binds nothing: `import` runs `r = g(n)` with `n` unbound, so every call
# of g ends in the import's NameError, before g runs at all.
n: int

def g(a: int) -> int:
    return 10 // a

LIMIT = 4
r = g(n)
