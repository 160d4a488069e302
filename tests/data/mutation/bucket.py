# entry: bucket
def bucket(x: int, w: int) -> int:
    if w <= 0:
        return -1
    return (x - 5) // w + x % w
