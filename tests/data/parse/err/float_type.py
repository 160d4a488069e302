x: float
