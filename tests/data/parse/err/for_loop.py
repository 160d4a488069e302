t: tuple
i = 0
for e in t:
    i += e
