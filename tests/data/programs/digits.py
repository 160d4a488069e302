# entry: digit_sum
# Digit sum with // and % in a loop, for negative and huge numbers too.
def digit_sum(n: int, base: int) -> int:
    n = abs(n)
    b = max(abs(base), 2)
    s = 0
    count = 0
    while n > 0:
        s += n % b
        n //= b
        count += 1
    return s * 100 + count
