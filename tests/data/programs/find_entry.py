# entry: find
# The book's linear search, analysed as a function.
def find(needle: int, haystack: tuple) -> int:
    i = 0
    while i < len(haystack):
        if haystack[i] == needle:
            break

        i = i + 1
    else:
        return -1

    return i
