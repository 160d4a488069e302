t: tuple
x: int
t += (x,)
t = t + t[-2:]
print(t[-1], t[-len(t)], len(t))
assert t[-3] != x
