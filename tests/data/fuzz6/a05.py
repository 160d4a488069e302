# entry: down
def down(n: int) -> int:
    total = 0
    for i in range(n, 0, -1):
        total = total * 2 + i % 3
    return total
