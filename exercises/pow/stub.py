# out = self ** other, other a plain number (the exponent)
# Add self's share of out.grad to self.grad, with +=.
pass
