name = "minipy"
