# entry: countdown
def countdown(n: int) -> int:
    k = 0
    while n > 0:
        n -= 3
        k += 1
    return k * 10 + n
