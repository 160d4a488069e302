x: int
try:
    y = 7
    y = y % x
    print(y)
except Exception:
    print(-y)
