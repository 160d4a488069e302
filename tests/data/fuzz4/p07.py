t: tuple
k: int
try:
    v = t[k]
    w = 10 // v
except ZeroDivisionError:
    w = -1
except IndexError:
    w = -2
print(w)
