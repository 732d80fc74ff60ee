# out = self * other
# d(out)/d(self) = other.data
# d(out)/d(other) = self.data
# Add each input's share of out.grad to its .grad.
pass
