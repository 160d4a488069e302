def parity(t: tuple) -> int:
    even = 0
    last = 0
    for v in t:
        if v % 2 == 0:
            even += 1
            last = v
    return even * 3 - len(t) + last
