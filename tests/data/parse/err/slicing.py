t: tuple
t[0:2] = (1, 2)
