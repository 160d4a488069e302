t: tuple
def last(u: tuple) -> int:
    return u[-1]

print(last(t) if len(t) > 0 else -1, last(t + (9,)))
