# out = log(self), the natural logarithm of x = self.data
# Add self's share of out.grad to self.grad, with +=.
pass
