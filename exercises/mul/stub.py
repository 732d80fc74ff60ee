# out = self * other
# Add each input's share of out.grad to its .grad,
# with += (an input can be used twice).
pass
