# Neighbouring elements compared in one pass.
def f(t: tuple) -> int:
    swaps = 0
    for i in range(len(t) - 1):
        if t[i] > t[i + 1]:
            swaps += 1
    if swaps == 2:
        return 1 // 0
    return swaps
