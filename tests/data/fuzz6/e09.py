t: tuple
found = False
for x in t:
    for y in t[1:]:
        if x + y == 10:
            found = True
            break
    if found:
        break
print(found)
