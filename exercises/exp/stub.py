# out = exp(self)
# d(out)/d(self) = exp(self), which is out.data
# Add self's share of out.grad to self.grad.
pass
