# Tuple == and != compare element by element and by length.
t: tuple
x: int

is_empty = t == ()
is_single = t == (x,)
differs = t != (1, 2)
prefix = len(t) >= 2 and (t[0], t[1]) == (x, x)
same_len = len(t + (x,)) == len(t) + 1
concat_eq = t + (x,) == t + (x,)
order = (1, 2) != (2, 1)
