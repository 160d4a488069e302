t: tuple
print(t[::-2], t[-2::-1], t[1:-1:2])
