t: tuple
print(t[-1] if len(t) > 0 else 0, t[-2:] if len(t) >= 2 else t[::-1])
