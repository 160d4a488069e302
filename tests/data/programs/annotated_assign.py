# Annotated assignments at module level (with a value they assign, they do not declare).
x: int
t: tuple

y: int = x * 2
ok: bool = y > x
pair: tuple = (x, y)
pair = pair + t
count: int = len(pair)
