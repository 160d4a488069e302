# After zero iterations the loop variable is unbound: NameError at module level,
# UnboundLocalError in a function.
n: int

def last_index(t: tuple) -> int:
    for i in range(len(t)):
        pass
    return i

k = 0
for w in range(min(n, 3)):
    k += w
if n > 10:
    r = last_index(())
else:
    r = w + last_index((n, n))
