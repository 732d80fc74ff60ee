# out = log(self), the natural logarithm of x = self.data
# d(out)/d(self) = 1 / x
# Add self's share of out.grad to self.grad.
pass
