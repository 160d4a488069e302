# entry: f
# `--entry f` is `import module; module.f(a)`: the top level's loop and `if` run first, so
# `base` is 61 when f is called (0 + 1 + 2 added to 3, then times 10, plus 1).
base = 3
k = 0
while k < 3:
    base = base + k
    k = k + 1
if base > 5:
    base = base * 10
base = base + 1

def f(a: int) -> int:
    return a + base
