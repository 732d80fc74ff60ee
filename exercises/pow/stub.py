# out = self ** other, other a number n
# d(out)/d(self) = n * self.data ** (n - 1)
# Add self's share of out.grad to self.grad.
pass
