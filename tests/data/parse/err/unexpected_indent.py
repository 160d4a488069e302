x: int
	if x > 0:
    pass
