# NameError: a function reads a module global that is not assigned yet when it is called.
x: int
b: bool

def get_limit() -> int:
    return limit + x

r = 0
if b:
    r = get_limit()
limit = 10
r = r + get_limit()
