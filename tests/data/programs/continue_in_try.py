# continue and break inside a try body (not a handler) inside a loop.
t: tuple
x: int

i = -1
kept = ()
skipped = 0
while i < len(t):
    i += 1
    try:
        if t[i] < 0:
            skipped += 1
            continue
        if t[i] == x:
            break
        kept = kept + (t[i] // (t[i] - x - 1),)
    except ZeroDivisionError:
        skipped += 100
    except IndexError:
        skipped += 1000
