t: tuple
n = 0
while True:
    try:
        n += t[n]
    except LookupError:
        break
    if n < 0 or n > 3:
        break
print(n)
