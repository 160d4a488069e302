# entry: scaled
# Negated floor division (issue 31's `-a // 3`).
def scaled(a: int) -> int:
    return -a // 3 + a % 4
