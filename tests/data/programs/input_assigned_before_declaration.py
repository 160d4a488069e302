# An annotation without a value binds nothing: the earlier assignment stays.
x = 5
x: int
r = x
