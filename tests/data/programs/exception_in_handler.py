# An exception raised inside a handler is not caught by that try's other handlers; an
# outer try may catch it, otherwise it is uncaught.
x: int
t: tuple

stage = 0
try:
    try:
        q = 10 // x
    except ZeroDivisionError:
        stage = 1
        q = t[0]
    except IndexError:
        stage = 2
except IndexError:
    stage = stage + 10
try:
    r = t[x]
except IndexError:
    stage = stage + 100
    r = 100 // (len(t) - 1)
except ZeroDivisionError:
    stage = -1
