t: tuple
i: int
j: int
print(t[i:j][::-1] == t[j - 1:i - 1:-1] if i > 0 and j > i else True)
