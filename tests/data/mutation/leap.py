# entry: leap
def leap(y: int) -> bool:
    if y % 4 != 0:
        return False
    if y % 100 != 0:
        return True
    return y % 400 == 0
