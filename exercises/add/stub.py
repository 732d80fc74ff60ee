# out = self + other
# d(out)/d(self) = 1
# d(out)/d(other) = 1
# Add each input's share of out.grad to its .grad.
pass
