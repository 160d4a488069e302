x: int
y: int
def f(v: int) -> int:
    print(v)
    return v * 2
if f(x) < f(y) < f(x + y):
    print(1)
z = f(x) if f(y) > 0 else f(-x)
print(f(1), f(x) // y, f(3))
