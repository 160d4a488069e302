# entry: parity
# countIf as a `for` loop: the even elements, one two-parameter template.
def parity(t: tuple) -> int:
    even = 0
    for v in t:
        if v % 2 == 0:
            even += 1
    return even * 3 - len(t)
