# entry: f
# Inner loops with a branch whose count has a closed form: a prefix (`j < k`), a suffix
# (`j >= k`) and a condition the inner loop keeps (`k > 0`).
def f(m: int, n: int, k: int) -> int:
    a = 0
    b = 0
    i = 0
    while i < m:
        j = 0
        while j < n:
            if j < k:
                a += 2
            else:
                b += 1
            j += 1
        j = n
        while j > 0:
            if k > 0:
                a += 1
            j -= 1
        i += 1
    return a * 1000 + b * 10 + i
