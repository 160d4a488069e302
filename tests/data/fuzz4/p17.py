t: tuple
a = t[::-1][::2]
b = t[1:][:-1]
c = (t + t)[len(t) - 1 :: -len(t) - 1] if len(t) > 0 else ()
print(a, b, c)
