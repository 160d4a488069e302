t: tuple
try:
    last = t[-1] if len(t) > 0 else t[0]
except IndexError:
    last = 99
print(last)
