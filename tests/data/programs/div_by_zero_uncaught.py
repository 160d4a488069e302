# ZeroDivisionError from // and % is uncaught; the store keeps what was assigned before.
x: int
y: int

before = x + y
q = x // y
after_q = q + 1
r = x % (y - 1)
after_r = r
