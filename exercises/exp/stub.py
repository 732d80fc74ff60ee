# out = exp(self): e to the power x = self.data
# Add self's share of out.grad to self.grad, with +=.
pass
