# out = relu(self): self.data where it is positive, else 0
# Add self's share of out.grad to self.grad, with +=.
pass
