t: tuple
s: int
try:
    print(t[::s][0])
except ValueError:
    print(1)
except IndexError:
    print(2)
