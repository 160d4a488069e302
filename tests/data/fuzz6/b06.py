t: tuple
x: int
if x not in t and len(t) < 3:
    t = t + (x,)
elif x in t:
    t = t[1:]
print(t, len(t))
