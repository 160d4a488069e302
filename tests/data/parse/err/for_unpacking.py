t: tuple
i = 0
for a, b in t:
    i += a
