# entry: h
# The top level's own assert fails (the loop sums 1 + 2 + 3 + 4 = 10, its `else:` adds 1):
# the import raises AssertionError whatever h's argument is.
total = 0
i = 1
while i <= 4:
    total += i
    i += 1
else:
    total = total + 1
assert total == 10

def h(x: int) -> int:
    return x * total
