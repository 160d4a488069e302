t: tuple
step: int
try:
    print(t[1:3:step])
except ValueError:
    print(0)
