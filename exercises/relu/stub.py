# out = relu(self): self.data where it is positive, else 0
# d(out)/d(self) = 1 where out.data > 0, else 0
# Add self's share of out.grad to self.grad.
pass
