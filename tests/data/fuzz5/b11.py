t: tuple
k: int
print(min(t[0], k) if len(t) > 0 else max(k, -k), abs(k) in t)
