class Point:
    pass
