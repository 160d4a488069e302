t: tuple
u = (t, 1)
