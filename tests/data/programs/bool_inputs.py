# Bool inputs: not/and/or, == and != between bools, bools from comparisons.
a: bool
b: bool
x: int

both = a and b
either = a or b
xor = a != b
same = a == b
neither = not a and not b
implies = not a or b
pos = x > 0
flag = pos == a
r = 0
if a:
    r = r + 1
if b:
    r = r + 2
if not a and b:
    r = r * 10
toggled = a
toggled = not toggled
