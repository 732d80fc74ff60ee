# out = self ** other, where other is a plain number (the exponent)
# Add self's share of out.grad to self.grad (+=: self can be used twice).
pass
