# Mutual recursion; a huge argument exceeds the recursion limit.
n: int

def is_even(k: int) -> bool:
    if k == 0:
        return True
    return is_odd(k - 1)

def is_odd(k: int) -> bool:
    if k == 0:
        return False
    return is_even(k - 1)

e = is_even(abs(n) % 50)
o = is_odd(abs(n))
