t: tuple
k: int
head = t[:k]
tail = t[k:]
print(head, tail, len(head) + len(tail) == len(t))
