# examples/safe_ratio.py with its handler narrowed: ArithmeticError -> IndexError.
part: int
whole: int


def ratio(a: int, b: int) -> int:
    try:
        return a // b
    except IndexError:
        return 0


def percent(part: int, whole: int) -> int:
    return ratio(100 * part, whole)


p = percent(part, whole)
rest = part % whole
