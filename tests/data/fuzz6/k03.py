x: int
havoc x
assume x % 3 == 1
assert x % 3 != 0
print(x % 3)
