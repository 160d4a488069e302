# entry: mod_walk
def mod_walk(n: int, k: int) -> int:
    acc = 0
    for i in range(-3, n):
        acc += i % k
    return acc
