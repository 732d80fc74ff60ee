(float(x > 0),)
