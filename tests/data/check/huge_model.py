t: tuple
assume len(t) > 4294967296
y = 1
