def f(a: tuple, b: tuple) -> int:
    i = 0
    while i < len(a):
        if a[i] != b[i]:
            return i
        i += 1
    return len(b) // len(a)
