t: tuple
k: int
def g(u: tuple) -> bool:
    print(len(u))
    return len(u) > 1
if g(t) and t[k] > 0 or g(t[1:]):
    print(t[k:k + 2])
