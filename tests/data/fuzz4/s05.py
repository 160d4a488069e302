n: int
def fact(k: int) -> int:
    if k <= 1:
        return 1
    return k * fact(k - 1)
v = fact(n)
print(v % 1000, v > 1000000)
