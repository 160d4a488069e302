t: tuple
for x in t:
    pass
print(x)
