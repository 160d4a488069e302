# try/except inside a while loop, with continue and break in the handlers.
t: tuple
d: int

i = -2
total = 0
errors = 0
while i < len(t) + 1:
    i += 1
    try:
        total = total + t[i] // d
    except IndexError:
        errors += 1
        continue
    except ZeroDivisionError:
        errors += 100
        break
    total = total + 1
else:
    errors = errors + 1000
