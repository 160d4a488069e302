# entry: minus
# r ↦ r - 3κ, a stride of 2, a base case that returns the parameter.
def minus(n: int) -> int:
    if n <= 0:
        return n
    return minus(n - 2) - 3
