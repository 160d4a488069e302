# while True with break, and break out of a try inside a loop.
x: int
t: tuple

k = x
rounds = 0
while True:
    rounds += 1
    if k <= 0 or rounds > 8:
        break
    k = k // 2
idx = 0
while True:
    try:
        v = t[idx]
    except IndexError:
        break
    idx += 1
