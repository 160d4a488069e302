# Nested `for` loops over the same variable, and a range loop named like the outer tuple
# loop's position (`x_index`): each loop keeps its own iteration.
t: tuple
r = 0
for x in t:
    for x_index in range(2):
        for x in (5, 6):
            r = r * 10 + x_index + x
s = 0
for i in range(min(len(t), 3)):
    for i in range(i, 3):
        s = s * 10 + i
