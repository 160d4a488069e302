# An input is bound before the module runs: reading it above its declaration is fine.
r = x + 1
x: int
