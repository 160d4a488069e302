t: tuple
head = t[0:2]
