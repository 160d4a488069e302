# Python as Python programmers write it: comments anywhere, blank lines, two-space
# indentation, continuation inside brackets, trailing commas, elif chains, `;`.

LIMIT = 10   # a module constant


def clamp(v: int, lo: int, hi: int) -> int:
  if v < lo:
    return lo
  elif v > hi:   # elif
    return hi
  else:
    return v


def total(t: tuple) -> int:
	# tabs are fine too, if consistent
	s = 0; i = 0
	while i < len(t):
		s += t[i]
		i += 1
	else:
		pass
	return s


x: int
t: tuple
pair = (x, x + 1,)     # trailing comma
one = (x,)
none = ()
empty = tuple()
both = pair + one + none + empty
inside = 0 <= x < len(t)          # chained comparison
y = clamp(x,
          -LIMIT,                  # continuation inside brackets
          LIMIT)
z = total(t)
