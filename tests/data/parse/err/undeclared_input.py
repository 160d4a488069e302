# reading a name that was never declared
y = x + 1
