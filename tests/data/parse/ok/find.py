def find(needle: int, haystack: tuple) -> int:
    i = 0
    while i < len(haystack):
        if haystack[i] == needle:
            return i
        i = i + 1
    return -1


x: int
t: tuple
r = find(x, t)
