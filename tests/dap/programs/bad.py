# bad.py: not minipy (true division): launch answers with the diagnostic.
x: int
y = x / 2
