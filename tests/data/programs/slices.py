# Slices with Python's clamping: every sign of bound and step, a zero step raises ValueError.
t: tuple
a: int
b: int
c: int
head = t[:2]
tail = t[1:]
mid = t[a:b]
back = t[::-1]
neg = t[-a:]
odd = t[1::2]
down = t[b:a:-1]
empty = t[5:-5]
n = len(t[a:])
try:
    strided = t[a:b:c]
except ValueError:
    strided = (len(t),)
whole = t[:] + ()[a:b]
assert len(mid) <= len(t)
