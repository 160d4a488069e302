# entry: f
def f(n: int, m: int) -> int:
    s = 0
    for i in range(n):
        for j in range(m):
            if (i + j) % 3 == 2:
                continue
            if j > i:
                break
            s += i - j
        else:
            s -= 1
    return s
