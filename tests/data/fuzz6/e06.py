t: tuple
for i in range(len(t) - 1, -1, -2):
    print(i, t[i])
else:
    print(len(t))
