# `print` (issue 25): what a path prints is part of its behaviour. `symdbg run --tree`
# lists each leaf's printed lines over the inputs; `symdbg exec` prints what python3
# prints; `symdbg testgen` asserts it with pytest's `capsys`.
t: tuple
k: int

def clip(t: tuple, hi: int) -> tuple:
    out = ()
    for x in t:
        out = out + ((x if x < hi else hi),)
    return out

print(len(t), k, k in t)
if len(t) > 3:
    t = t[:3]
head = t[1:] if k > 0 else t[::-1]
print(head, clip(t, k))
for i in range(len(head)):
    if head[i] == k:
        print(i, head[i] > 0)
        break
else:
    print()
