# A chain stops at the first False comparison: later operands (which may raise) do not run.
x: int
t: tuple

a = x < 0 < 100 // x
b = 0 < x < 10 // (x - 3)
c = 0 <= x < len(t) > t[x]
d = len(t) > 2 < t[2]
e = 0 > x > t[x]
