t: tuple
n = 0
try:
    for i in range(4):
        n += t[i]
except LookupError:
    n = -n
print(n)
