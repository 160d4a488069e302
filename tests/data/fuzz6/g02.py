t: tuple
if len(t) < 0:
    print(t)
n = len(t[5:2])
if n != 0:
    print(n)
