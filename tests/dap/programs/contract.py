# A contracted function whose body divides by zero at x == 7: inlined, the exception is
# reachable; with the contract used at the call, the caller trusts it (issue 28).
def inc(x: int) -> int:
    requires x >= 0
    ensures result > x
    if x == 7:
        return x // 0
    return x + 1


x: int
y = 0
if x >= 0:
    y = inc(x)
