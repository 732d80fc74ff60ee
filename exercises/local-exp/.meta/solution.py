(math.exp(x),)
