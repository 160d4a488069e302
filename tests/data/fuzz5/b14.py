t: tuple
x: int
found = -1
if x in t:
    for i in range(len(t)):
        if t[i] == x:
            found = i
            break
print(found, 0 < x in t)
