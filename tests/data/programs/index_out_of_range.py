# Out-of-range indices raise IndexError; caught via IndexError and via LookupError.
t: tuple
i: int

caught = 0
a = 0
try:
    a = t[i]
except IndexError:
    caught = 1
b = 0
try:
    b = t[len(t)]
except LookupError:
    caught = caught + 10
c = 0
try:
    c = t[-len(t) - 1]
except IndexError:
    caught = caught + 100
d = t[i + 1]
